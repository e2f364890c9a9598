//! Just enough of the W3C WebDriver protocol to drive Debian's chromium through
//! chromedriver: open a page, find, click, type, read text, take screenshots. (The WebDriver
//! client crates bring a TLS stack for a protocol that runs over plain HTTP on localhost.)

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A headless chromium under chromedriver, one session.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    /// Where the page's downloads land.
    pub downloads: PathBuf,
    /// Chromium's profile (megabytes), removed with the downloads when the browser closes.
    profile: PathBuf,
}

/// Where chromedriver is, if this machine has it.
pub fn chromedriver() -> Option<String> {
    ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .map(String::from)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// Starts chromedriver and a headless chromium session.
    pub fn start(driver: &str) -> Browser {
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while agent().get(&format!("{base}/status")).call().is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver is up"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let user_data =
            std::env::temp_dir().join(format!("bmn-chromium-{}-{port}", std::process::id()));
        // The flags the machine's notes give for a closed network: no background traffic.
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,1500",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", user_data.display())])
        .collect::<Vec<_>>();
        let downloads =
            std::env::temp_dir().join(format!("bmn-downloads-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&downloads).unwrap();
        let mut options = json!({ "args": args, "prefs": {
            "download.default_directory": downloads.display().to_string(),
            "download.prompt_for_download": false,
        } });
        if Path::new("/usr/bin/chromium").exists() {
            options["binary"] = json!("/usr/bin/chromium");
        }
        let mut browser = Browser {
            driver: child,
            base,
            session: String::new(),
            downloads,
            profile: user_data,
        };
        let v = browser.call(
            "POST",
            "/session",
            json!({ "capabilities": { "alwaysMatch": {
                "browserName": "chrome", "goog:chromeOptions": options } } }),
        );
        browser.session = v["sessionId"].as_str().expect("a session").to_string();
        browser
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let url = if path == "/session" {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let mut response = match method {
            "GET" => agent().get(&url).call(),
            "DELETE" => agent().delete(&url).call(),
            _ => agent().post(&url).send_json(&body),
        }
        .expect("chromedriver answers");
        let status = response.status().as_u16();
        let v: Value = response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_json()
            .unwrap();
        assert!(status < 400, "{method} {path}: {v}");
        v["value"].clone()
    }

    /// Runs `script` (a function body; `return` gives the value) in the page.
    pub fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    /// The element `css` selects, waiting up to 20 s for it.
    pub fn find(&self, css: &str) -> String {
        let started = Instant::now();
        loop {
            let url = format!("{}/session/{}/element", self.base, self.session);
            let mut r = agent()
                .post(&url)
                .send_json(json!({ "using": "css selector", "value": css }))
                .unwrap();
            if r.status().as_u16() == 200 {
                let v: Value = r.body_mut().read_json().unwrap();
                return v["value"][ELEMENT].as_str().unwrap().to_string();
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "no element {css}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn click(&self, css: &str) {
        let e = self.find(css);
        self.call("POST", &format!("/element/{e}/click"), json!({}));
    }

    /// Clicks the first of the elements `css` selects that takes the click (in a crowded
    /// drawing some lie under others).
    pub fn click_any(&self, css: &str) {
        self.find(css);
        let all = self.call(
            "POST",
            "/elements",
            json!({ "using": "css selector", "value": css }),
        );
        for e in all.as_array().unwrap() {
            let id = e[ELEMENT].as_str().unwrap();
            let url = format!("{}/session/{}/element/{id}/click", self.base, self.session);
            if agent()
                .post(&url)
                .send_json(json!({}))
                .unwrap()
                .status()
                .as_u16()
                == 200
            {
                return;
            }
        }
        panic!("no element {css} takes a click");
    }

    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call("POST", &format!("/element/{e}/clear"), json!({}));
        self.call(
            "POST",
            &format!("/element/{e}/value"),
            json!({ "text": text }),
        );
    }

    pub fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.call("GET", &format!("/element/{e}/text"), json!({}))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits up to 20 s until the text of `css` contains `expected`; returns the text.
    pub fn wait_text(&self, css: &str, expected: &str) -> String {
        let started = Instant::now();
        loop {
            let text = self.text(css);
            if text.contains(expected) {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{css} never read {expected:?}; it reads {text:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits up to 20 s for the page to download `name`; returns its text.
    pub fn downloaded(&self, name: &str) -> String {
        let path = self.downloads.join(name);
        let partial = self.downloads.join(format!("{name}.crdownload"));
        let started = Instant::now();
        let mut last: Option<String> = None;
        loop {
            // Chromium may create the file before it has written it (an empty file was read
            // once): the text counts when it is not empty, no partial download is left, and
            // it reads the same twice 100 ms apart.
            let text = std::fs::read_to_string(&path).ok();
            let whole = text.as_ref().is_some_and(|t| !t.is_empty()) && !partial.exists();
            if whole && text == last {
                return text.expect("read");
            }
            last = text;
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{name} was never downloaded into {}",
                self.downloads.display()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Saves a PNG of the element `css` selects to `path`.
    pub fn screenshot_of(&self, css: &str, path: &Path) {
        let e = self.find(css);
        self.run(&format!(
            "document.querySelector({}).scrollIntoView();",
            json!(css)
        ));
        let v = self.call("GET", &format!("/element/{e}/screenshot"), json!({}));
        save_png(&v, path);
    }

    /// Sets the window to `width` x `height` pixels (headless: the page's viewport).
    pub fn resize(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            json!({ "width": width, "height": height }),
        );
    }

    /// Saves a PNG of the window to `path`.
    pub fn screenshot(&self, path: &Path) {
        let v = self.call("GET", "/screenshot", json!({}));
        save_png(&v, path);
    }
}

/// Writes a screenshot answer (base64 PNG) to `path`.
fn save_png(v: &Value, path: &Path) {
    let png = base64::engine::general_purpose::STANDARD
        .decode(v.as_str().unwrap())
        .unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, png).unwrap();
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = agent()
                .delete(&format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.downloads);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
