//! The client against a loopback server that misbehaves: a listing without end, an id that
//! would steer the reply's address.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

/// A server that answers one request with a chunked 200 whose body never stops before
/// `total` bytes, and counts the requests it saw.
async fn endless(total: usize) -> (String, tokio::task::JoinHandle<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let served = tokio::spawn(async move {
        let Ok((mut stream, _)) = listener.accept().await else {
            return 0;
        };
        let mut request = [0u8; 4096];
        let _ = stream.read(&mut request).await;
        let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                    transfer-encoding: chunked\r\n\r\n";
        let _ = stream.write_all(head.as_bytes()).await;
        let _ = stream.write_all(b"1\r\n[\r\n").await;
        let chunk = vec![b' '; 1 << 20];
        let mut sent = 0;
        while sent < total {
            let size = format!("{:x}\r\n", chunk.len());
            let ok = stream.write_all(size.as_bytes()).await.is_ok()
                && stream.write_all(&chunk).await.is_ok()
                && stream.write_all(b"\r\n").await.is_ok();
            if !ok {
                break;
            }
            sent += chunk.len();
        }
        1
    });
    (url, served)
}

fn client(url: String) -> Client {
    Client::new(Server { url, auth: None }).unwrap()
}

#[tokio::test]
async fn a_listing_over_the_bound_is_refused_and_not_read_whole() {
    let (url, served) = endless(MAX_BODY_BYTES * 4).await;
    let err = client(url).pending(None).await.unwrap_err();
    let ClientError::BadBody { why, .. } = err else {
        panic!("{err}");
    };
    assert!(why.contains("over"), "{why}");
    served.abort();
}

#[tokio::test]
async fn an_id_that_could_steer_the_reply_address_is_refused_before_any_request() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let client = client(url);
    for id in [
        "../../session/x",
        "per/../x",
        "",
        "per x",
        "per?x=1",
        "per%2e%2e",
    ] {
        let err = client.reply(id, None, &Reply::Once).await.unwrap_err();
        assert!(matches!(err, ClientError::BadBody { .. }), "{id:?}: {err}");
    }
    // Nothing reached the server: the listener has no connection waiting.
    let waiting = tokio::time::timeout(Duration::ZERO, listener.accept()).await;
    assert!(waiting.is_err(), "a request was made");
    assert!(is_permission_id("per_01JABCdef-xyz"));
}
