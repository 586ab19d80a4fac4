//! The web console in a real browser: headless Chromium, driven over WebDriver by
//! chromedriver, against the real `gatehouse serve --web` and a real hook. It pairs with the
//! link `gatehouse pair` prints, sees the hook's call, denies it with a typed reason, and the
//! hook prints that reason; a second use of the link does not pair; a browser without a token
//! is shown no call. With `GATEHOUSE_WEB_SCREENSHOT=FILE` it also saves a phone-size
//! screenshot of the page showing the call (docs/web.png is made so).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); without them the
//! test says SKIP, except under CI, where it fails.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::place::Place;
use serde_json::{Value, json};

const CHROMEDRIVER: &str = "chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
/// The W3C WebDriver key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A process killed when dropped.
pub(crate) struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One browser session on a chromedriver.
pub(crate) struct Browser {
    http: reqwest::Client,
    base: String,
}

impl Browser {
    /// A fresh headless Chromium the size of a phone, with its own empty profile.
    pub(crate) async fn open(driver: &str, profile: &Path) -> Browser {
        let http = gatehouse::plumbing::http::client();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage",
                         format!("--user-data-dir={}", profile.display())],
                "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0}}
            }
        }}});
        let reply: Value = http
            .post(format!("{driver}/session"))
            .json(&capabilities)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = reply["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {reply}"));
        Browser {
            http,
            base: format!("{driver}/session/{id}"),
        }
    }

    pub(crate) async fn call(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        self.try_call(method, path, body)
            .await
            .unwrap_or_else(|reply| panic!("WebDriver {path}: {reply}"))
    }

    /// [`Browser::call`], with WebDriver's error reply as the error.
    async fn try_call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> Result<Value, Value> {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if !body.is_null() {
            request = request.json(&body);
        }
        let reply: Value = request.send().await.unwrap().json().await.unwrap();
        match reply["value"]["error"].is_string() {
            true => Err(reply),
            false => Ok(reply["value"].clone()),
        }
    }

    pub(crate) async fn go(&self, url: &str) {
        self.call(reqwest::Method::POST, "/url", json!({ "url": url }))
            .await;
    }

    pub(crate) async fn script(&self, script: &str) -> Value {
        let body = json!({ "script": script, "args": [] });
        self.call(reqwest::Method::POST, "/execute/sync", body)
            .await
    }

    /// Waits (up to 15 s) until `script` returns true in the page.
    pub(crate) async fn until(&self, what: &str, script: &str) {
        let started = Instant::now();
        loop {
            if self.script(script).await == Value::Bool(true) {
                return;
            }
            let page = self.script("return document.body.innerText").await;
            assert!(
                started.elapsed() < Duration::from_secs(15),
                "the page never showed {what}; it shows: {page}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub(crate) async fn element(&self, css: &str) -> String {
        let body = json!({ "using": "css selector", "value": css });
        let found = self.call(reqwest::Method::POST, "/element", body).await;
        found[ELEMENT].as_str().unwrap().to_string()
    }

    /// Clicks `css` as a person would (WebDriver's pointer click). The page redraws its queue
    /// on every update, so an element found may be replaced before the click reaches it: it
    /// is then found again (a few times at most), as a person's next look would.
    pub(crate) async fn click(&self, css: &str) {
        for _ in 0..5 {
            let id = self.element(css).await;
            let path = format!("/element/{id}/click");
            match self.try_call(reqwest::Method::POST, &path, json!({})).await {
                Ok(_) => return,
                Err(reply) if reply["value"]["error"] == "stale element reference" => continue,
                Err(reply) => panic!("WebDriver {path}: {reply}"),
            }
        }
        panic!("{css} was replaced before every click reached it");
    }

    /// Types `text` into `css` as key presses.
    pub(crate) async fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css).await;
        let path = format!("/element/{id}/value");
        self.call(reqwest::Method::POST, &path, json!({ "text": text }))
            .await;
    }

    pub(crate) async fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let png = self
            .call(reqwest::Method::GET, "/screenshot", Value::Null)
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap()
    }

    pub(crate) async fn close(self) {
        let _ = self.http.delete(&self.base).send().await;
    }
}

/// chromedriver on a free port, once it says it is ready; `None` (after a SKIP line) when
/// it is not installed outside CI.
pub(crate) async fn chromedriver() -> Option<(Killed, String)> {
    if Command::new(CHROMEDRIVER)
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromedriver is not installed, and CI must run the browser test"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIP web_chromium: chromedriver is not installed (apt-get install chromium chromium-driver)"
        );
        return None;
    }
    let port = common::free_port();
    let child = Killed(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let driver = format!("http://127.0.0.1:{port}");
    let http = gatehouse::plumbing::http::client();
    let started = Instant::now();
    loop {
        let status = http.get(format!("{driver}/status")).send().await;
        if let Ok(status) = status
            && let Ok(body) = status.json::<Value>().await
            && body["value"]["ready"] == Value::Bool(true)
        {
            return Some((child, driver));
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `gatehouse serve` with its web console on a free loopback port, in a place of its own.
pub(crate) struct Web {
    pub(crate) place: Place,
    pub(crate) base: String,
    /// The `serve` this test started; `None` beside a console started otherwise (in tmux).
    _serve: Option<Killed>,
}

impl Web {
    pub(crate) fn serve() -> Web {
        let port = common::free_port();
        let place = Place::new(&format!("[web]\nlisten = \"127.0.0.1:{port}\"")).without_api_keys();
        let mut serve = place.command(&["serve"]);
        serve.env("XDG_STATE_HOME", place.path().join("state"));
        let mut serve = serve
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // serve says where the web console is once it listens.
        let mut said = BufReader::new(serve.stderr.take().unwrap());
        let mut line = String::new();
        while !line.contains("web console on") {
            line.clear();
            assert!(said.read_line(&mut line).unwrap() > 0, "serve stopped");
        }
        std::thread::spawn(move || std::io::copy(&mut said, &mut std::io::sink()));
        let base = format!("http://127.0.0.1:{port}");
        assert!(line.contains(&base), "{line}");
        Web {
            place,
            base,
            _serve: Some(Killed(serve)),
        }
    }

    /// The web console of a console already running in `place` (its config listens on `port`).
    pub(crate) fn beside(place: Place, port: u16) -> Web {
        Web {
            place,
            base: format!("http://127.0.0.1:{port}"),
            _serve: None,
        }
    }

    /// `command` with the serve's state folder, where its devices are kept.
    pub(crate) fn with_state(&self, mut command: Command) -> Command {
        command.env("XDG_STATE_HOME", self.place.path().join("state"));
        command
    }

    /// A browser with its profile in `profile`, paired with this console by a fresh link.
    pub(crate) async fn paired(&self, driver: &str, profile: &Path) -> Browser {
        let browser = Browser::open(driver, profile).await;
        browser.go(&format!("{}/", self.base)).await;
        browser.go(&self.pair_link()).await;
        browser
    }

    /// The pairing link `gatehouse pair` prints last.
    pub(crate) fn pair_link(&self) -> String {
        let pair = self
            .with_state(self.place.command(&["pair"]))
            .output()
            .unwrap();
        assert!(
            pair.status.success(),
            "{}",
            String::from_utf8_lossy(&pair.stderr)
        );
        let printed = String::from_utf8(pair.stdout).unwrap();
        let link = printed.lines().last().unwrap().to_string();
        assert!(
            link.starts_with(&format!("{}/#pair=", self.base)),
            "{printed}"
        );
        link
    }
}

#[tokio::test]
async fn a_phone_pairs_by_link_and_denies_a_real_hooks_call_with_a_typed_reason() {
    let Some((_driver, driver)) = chromedriver().await else {
        return;
    };
    let web = Web::serve();
    let (place, base) = (&web.place, web.base.clone());

    // A real hook's call, which in allow-read needs a human.
    let payload = json!({
        "session_id": "web-1", "cwd": "/tmp", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build-from-the-web-test",
                       "description": "Clean the test build"},
        "tool_use_id": "t1"
    });
    let hook = common::claude_hook(&place.socket(), &payload);

    let profiles = tempfile::tempdir().unwrap();
    let browser = Browser::open(&driver, &profiles.path().join("phone")).await;

    // No token: the page shell loads and says so, and no call reaches it.
    browser.go(&format!("{base}/")).await;
    browser
        .until(
            "the not-paired notice",
            "return !document.getElementById('unpaired').hidden",
        )
        .await;
    let source = browser
        .script("return document.documentElement.outerHTML")
        .await;
    assert!(
        !source.as_str().unwrap().contains("build-from-the-web-test"),
        "{source}"
    );

    // Pair with the link `gatehouse pair` prints last.
    let link = web.pair_link();
    // Pasted into the tab already on the page: only the hash changes, nothing reloads.
    browser.script("window.stayed = true; return true").await;
    browser.go(&link).await;
    browser
        .until(
            "the call",
            "return !document.getElementById('call').hidden && \
             document.getElementById('subject').textContent.includes('rm -rf build-from-the-web-test')",
        )
        .await;
    assert_eq!(
        browser.script("return window.stayed === true").await,
        json!(true),
        "the page paired without a reload"
    );
    let address = browser.script("return location.href").await;
    assert_eq!(
        address,
        json!(format!("{base}/")),
        "the code leaves the address bar"
    );

    // Deny with a typed reason.
    browser
        .until(
            "the Deny button armed",
            "return !document.getElementById('deny').disabled",
        )
        .await;
    // What the agent said it is doing, the time left, and the call shown once, not also in
    // the list of other waiting calls.
    let shown = browser
        .script(
            "return [document.getElementById('call-description').textContent, \
             document.getElementById('call-where').textContent, \
             document.getElementById('queue').children.length, \
             document.querySelector('#modes button[aria-pressed=true]').className]",
        )
        .await;
    assert_eq!(shown[0], json!("“Clean the test build”"), "{shown}");
    assert!(shown[1].as_str().unwrap().ends_with(" left"), "{shown}");
    assert_eq!(shown[2], json!(0), "{shown}");
    assert_eq!(shown[3], json!("mode-allow-read"), "{shown}");
    browser.click("#deny").await;
    assert_eq!(
        browser
            .script("return document.getElementById('buttons').hidden")
            .await,
        json!(true),
        "one Deny button at a time: the box's own"
    );
    let reason = "not from the web test: keep the build";
    browser.type_into("#text", reason).await;
    if let Some(file) = std::env::var_os("GATEHOUSE_WEB_SCREENSHOT") {
        std::fs::write(file, browser.screenshot().await).unwrap();
    }
    browser.click("#send").await;
    let out = hook.wait_with_output().unwrap();
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        printed["hookSpecificOutput"]["permissionDecision"], "deny",
        "{printed}"
    );
    assert_eq!(
        printed["hookSpecificOutput"]["permissionDecisionReason"], reason,
        "{printed}"
    );
    browser
        .until(
            "the empty queue",
            "return !document.getElementById('empty').hidden",
        )
        .await;
    browser
        .until(
            "the answer in this device's history",
            "return document.getElementById('history').textContent \
             .startsWith('denied #1 · Claude Code · rm -rf build-from-the-web-test')",
        )
        .await;
    browser.close().await;

    // The answer is audited as the human's, with the device's name.
    let audit = place.audit();
    let answer = audit
        .iter()
        .find(|r| r["decision"] == "deny" && r["tool"] == "Bash")
        .unwrap_or_else(|| panic!("no deny in {audit:?}"));
    assert_eq!(answer["decider"], "human", "{answer}");
    assert_eq!(answer["device"], "headless browser", "{answer}");

    // A second browser with the same link does not pair.
    let second = Browser::open(&driver, &profiles.path().join("second")).await;
    second.go(&link).await;
    second
        .until(
            "the refused pairing",
            "return !document.getElementById('unpaired').hidden && \
             document.getElementById('pair-error').textContent.includes('already used')",
        )
        .await;
    let token = second
        .script("return localStorage.getItem('gatehouse-token')")
        .await;
    assert_eq!(token, Value::Null);
    second.close().await;
}
