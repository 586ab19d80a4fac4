//! The real binary: `gatehouse serve` attaches when `gatehouse attach opencode URL` asks it to
//! (over its socket) and when its config lists the server, and lets go on `detach`; without a
//! URL it attaches to the OpenCode 2.x service that `service.json` registers.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

use super::fake::Fake;
use super::fake_v2::FakeV2;
use super::{PROJECT, shell_request};
use serde_json::json;

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new(config: &str) -> Place {
        let dir = tempfile::tempdir().unwrap();
        let audit = dir.path().join("audit.jsonl");
        let text = format!("audit_log = {:?}\n{config}\n", audit.to_str().unwrap());
        std::fs::write(dir.path().join("config.toml"), text).unwrap();
        Place { dir }
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("run/gatehouse.sock")
    }

    fn gatehouse(&self, args: &[&str]) -> Command {
        let mut command = Command::new(GATEHOUSE);
        command
            .args(args)
            .arg("--config")
            .arg(self.dir.path().join("config.toml"))
            .arg("--socket")
            .arg(self.socket())
            .env_remove("OPENCODE_SERVER_PASSWORD")
            .env_remove("OPENCODE_SERVER_USERNAME");
        command
    }

    /// `gatehouse serve` in allow-all, once its socket is there.
    async fn serve(&self) -> Serve {
        let child = self
            .gatehouse(&["serve", "--mode", "allow-all"])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let socket = self.socket();
        let wait = async {
            while !socket.exists() {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(10), wait)
            .await
            .expect("serve never listened");
        Serve(child)
    }
}

/// `gatehouse serve`, stopped with SIGTERM when dropped.
struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        // SAFETY: kill with a pid we spawned and have not waited for yet.
        unsafe { libc::kill(self.0.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

async fn run(mut command: Command) -> Output {
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn attach_asks_the_running_serve_to_answer_the_servers_requests_and_detach_lets_go() {
    let fake = Fake::start(Some("s3cret")).await;
    fake.pend(Some(PROJECT), shell_request("per_c1", "touch ran.txt"));
    let place = Place::new("");
    let _serve = place.serve().await;
    let mut attach = place.gatehouse(&[
        "attach",
        "opencode",
        &fake.url,
        "--password-env",
        "E2E_OPENCODE_PW",
    ]);
    attach.env("E2E_OPENCODE_PW", "s3cret");
    let out = run(attach).await;
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("attaching to opencode at"),
        "{}",
        text(&out)
    );
    fake.until("the reply", |f| !f.replies().is_empty()).await;
    assert_eq!(fake.replies()[0].body, json!({"reply": "once"}));
    assert_eq!(fake.unauthorized(), 0);

    let out = run(place.gatehouse(&["detach", "opencode", &fake.url])).await;
    assert!(out.status.success(), "{}", text(&out));
    let out = run(place.gatehouse(&["detach", "opencode", &fake.url])).await;
    assert!(!out.status.success());
    assert!(text(&out).contains("not attached"), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_in_the_config_is_attached_when_serve_starts() {
    let fake = Fake::start(None).await;
    fake.pend(Some(PROJECT), shell_request("per_c2", "touch ran.txt"));
    let place = Place::new(&format!("[[opencode]]\nurl = {:?}\n", fake.url));
    let _serve = place.serve().await;
    fake.until("the reply", |f| !f.replies().is_empty()).await;
    assert_eq!(fake.replies()[0].id, "per_c2");
}

#[tokio::test(flavor = "multi_thread")]
async fn attach_without_a_console_says_how_to_start_one() {
    let place = Place::new("");
    let out = run(place.gatehouse(&["attach", "opencode", "http://127.0.0.1:9"])).await;
    assert!(!out.status.success());
    assert!(
        text(&out).contains("no gatehouse console is listening"),
        "{}",
        text(&out)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_config_url_that_is_not_an_address_fails_with_its_line() {
    let place = Place::new("[[opencode]]\nurl = \"127.0.0.1:4096\"\n");
    let out = run(place.gatehouse(&["serve"])).await;
    assert!(!out.status.success());
    let text = text(&out);
    assert!(text.contains("config.toml:3"), "{text}");
    assert!(
        text.contains("not the address of an OpenCode server"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn attach_without_a_url_reaches_the_2x_service_its_registration_names_with_its_password() {
    let fake = FakeV2::start(PROJECT, Some("svc-pw")).await;
    fake.pend(json!({
        "id": "per_s1", "sessionID": "ses_s", "action": "bash", "resources": ["touch x"],
        "metadata": {"command": "touch x"},
    }));
    let place = Place::new("");
    let state = place.dir.path().join("state");
    std::fs::create_dir_all(state.join("opencode")).unwrap();
    let registration = json!({
        "id": "svc_1", "version": "2.0.12", "url": fake.url, "pid": 1, "password": "svc-pw",
    });
    std::fs::write(
        state.join("opencode/service.json"),
        registration.to_string(),
    )
    .unwrap();
    let _serve = place.serve().await;

    let mut missing = place.gatehouse(&["attach", "opencode"]);
    missing.env("XDG_STATE_HOME", place.dir.path().join("nowhere"));
    let out = run(missing).await;
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("give the URL"), "{}", text(&out));

    let mut attach = place.gatehouse(&["attach", "opencode"]);
    attach.env("XDG_STATE_HOME", &state);
    let out = run(attach).await;
    assert!(out.status.success(), "{}", text(&out));
    fake.until("the reply", |f| !f.replies().is_empty()).await;
    let reply = &fake.replies()[0];
    assert_eq!(
        (reply.session.as_str(), reply.id.as_str()),
        ("ses_s", "per_s1")
    );
    assert_eq!(reply.body, json!({"reply": "once"}));
}
