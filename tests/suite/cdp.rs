//! A small Chrome DevTools Protocol client for the browser test
//! (tests/suite/serve_browser.rs): just what it uses, over one WebSocket
//! (tungstenite; plain TCP to 127.0.0.1, no TLS).
//!
//! [`Chromium::launch`] starts the browser headless with a fresh profile and
//! `--remote-debugging-port=0`, reads the `DevTools listening on ws://...` line
//! from its stderr, connects to that browser endpoint, opens a page with
//! `Target.createTarget` and attaches to it with `Target.attachToTarget`
//! (`flatten: true`: the page's commands and events carry its `sessionId` on the
//! same socket), then enables the `Page` and `Runtime` domains.
//!
//! Methods used: `Target.createTarget`, `Target.attachToTarget`, `Page.enable`,
//! `Runtime.enable`, `Page.navigate` (then the `Page.loadEventFired` event),
//! `Runtime.evaluate` (`awaitPromise`, `returnByValue`),
//! `Page.captureScreenshot`, `Browser.close`. The events
//! `Runtime.consoleAPICalled` (type `error` or `assert`) and
//! `Runtime.exceptionThrown` are collected as problems, whenever a message is
//! read.
//!
//! Every wait has a deadline: a browser that does not start, answer or load
//! fails the test with a message naming what it waited for (and the tail of
//! Chromium's stderr), never hangs it. Dropping the client closes the browser
//! (`Browser.close`, then a kill) and removes its profile.

use serde_json::{json, Value};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, ErrorKind};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// How long Chromium may take to print its DevTools address.
const START: Duration = Duration::from_secs(60);
/// How long one command may take to be answered (an evaluation that fetches
/// hundreds of tiles, or times 120 animation frames, included).
const ANSWER: Duration = Duration::from_secs(180);
/// How long a navigation may take to fire the page's load event.
const LOAD: Duration = Duration::from_secs(60);
/// Granularity of the deadline checks while reading the socket.
const POLL: Duration = Duration::from_millis(200);

pub struct Chromium {
    conn: RefCell<Connection>,
    child: Child,
    /// The last lines Chromium wrote to stderr, for error messages.
    stderr: Arc<Mutex<Vec<String>>>,
    /// The fresh profile; removed after the browser is gone (fields drop in
    /// order, and `Drop::drop` runs before any of them).
    _profile: tempfile::TempDir,
}

struct Connection {
    ws: WebSocket<TcpStream>,
    next_id: u64,
    /// The page's session (flat mode): sent with every page command.
    session: String,
    /// Console errors and uncaught exceptions of the page, as read so far.
    problems: Vec<String>,
    /// Set by `Page.loadEventFired` of the page's session.
    loaded: bool,
}

impl Chromium {
    /// Starts Chromium at `path` with a window of `window` (width, height) CSS
    /// pixels and opens one blank page. Panics with the reason when it cannot.
    pub fn launch(path: &Path, window: (u32, u32)) -> Chromium {
        let profile = tempfile::tempdir().expect("a temporary profile folder");
        let mut child = Command::new(path)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                // Kept from the defaults of headless_chrome, the previous driver, so
                // the page runs as it did: /tmp instead of a container's small
                // /dev/shm, no throttled timers or animation frames in a page
                // Chromium thinks is in the background, sRGB output, no crash
                // reporter, extensions or keyring.
                "--disable-dev-shm-usage",
                "--disable-background-timer-throttling",
                "--disable-backgrounding-occluded-windows",
                "--disable-renderer-backgrounding",
                "--force-color-profile=srgb",
                "--disable-breakpad",
                "--disable-extensions",
                "--password-store=basic",
                "--use-mock-keychain",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("--remote-debugging-port=0")
            .arg(format!("--window-size={},{}", window.0, window.1))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", path.display()));

        // Chromium's stderr: the DevTools address goes to the channel; every line
        // is kept (the last 40) for error messages, and the pipe is drained
        // until the browser exits so it never blocks on a full pipe.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (address, found) = mpsc::channel();
        {
            let pipe = child.stderr.take().expect("stderr is piped");
            let stderr = stderr.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    let Ok(line) = line else { break };
                    if let Some(at) = line.find("DevTools listening on ") {
                        let url = line[at + "DevTools listening on ".len()..].trim();
                        let _ = address.send(url.to_string());
                    }
                    let mut kept = stderr.lock().unwrap();
                    kept.push(line);
                    if kept.len() > 40 {
                        kept.remove(0);
                    }
                }
            });
        }
        let tail = |stderr: &Arc<Mutex<Vec<String>>>| stderr.lock().unwrap().join("\n");
        let url = match found.recv_timeout(START) {
            Ok(url) => url,
            Err(e) => {
                let _ = child.kill();
                let status = child.wait();
                let why = match e {
                    mpsc::RecvTimeoutError::Timeout => format!("within {START:?}"),
                    mpsc::RecvTimeoutError::Disconnected => {
                        format!("before it exited ({status:?})")
                    }
                };
                panic!(
                    "Chromium ({}) printed no 'DevTools listening on ws://...' line {why}; its stderr:\n{}",
                    path.display(),
                    tail(&stderr)
                );
            }
        };

        let ws = match connect(&url) {
            Ok(ws) => ws,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("connecting to Chromium's DevTools at {url}: {e}");
            }
        };
        let browser = Chromium {
            conn: RefCell::new(Connection {
                ws,
                next_id: 0,
                session: String::new(),
                problems: Vec::new(),
                loaded: false,
            }),
            child,
            stderr,
            _profile: profile,
        };
        let target = browser.browser_call("Target.createTarget", json!({ "url": "about:blank" }));
        let target = target["targetId"]
            .as_str()
            .expect("Target.createTarget gives a targetId");
        let attached = browser.browser_call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        );
        browser.conn.borrow_mut().session = attached["sessionId"]
            .as_str()
            .expect("Target.attachToTarget gives a sessionId")
            .to_string();
        browser.call("Page.enable", json!({}));
        browser.call("Runtime.enable", json!({}));
        browser
    }

    /// Loads `url` in the page and waits for its load event.
    pub fn navigate(&self, url: &str) {
        self.conn.borrow_mut().loaded = false;
        let reply = self.call("Page.navigate", json!({ "url": url }));
        if let Some(error) = reply["errorText"].as_str() {
            panic!("navigating to {url}: {error}");
        }
        if reply["loaderId"].is_null() {
            // A same-document navigation (only the fragment changed): no load event.
            return;
        }
        let deadline = Instant::now() + LOAD;
        let mut conn = self.conn.borrow_mut();
        while !conn.loaded {
            if let Err(e) = conn.read_one(deadline) {
                drop(conn);
                self.fail(&format!("waiting {LOAD:?} for {url} to load: {e}"));
            }
        }
    }

    /// Evaluates `js` in the page (a promise is awaited) and returns its value
    /// as JSON (`null` for `undefined`); an exception thrown by `js` is an
    /// `Err` with its description.
    pub fn evaluate(&self, js: &str) -> Result<Value, String> {
        let session = self.conn.borrow().session.clone();
        let params = json!({ "expression": js, "awaitPromise": true, "returnByValue": true });
        let reply = self
            .conn
            .borrow_mut()
            .call(Some(&session), "Runtime.evaluate", params, ANSWER);
        let reply = reply.unwrap_or_else(|e| {
            let short: String = js.trim().chars().take(160).collect();
            self.fail(&format!("Runtime.evaluate of `{short}`: {e}"))
        });
        if let Some(details) = reply.get("exceptionDetails") {
            return Err(describe_exception(details));
        }
        Ok(reply["result"].get("value").cloned().unwrap_or(Value::Null))
    }

    /// A PNG of the page's viewport.
    pub fn screenshot_png(&self) -> Vec<u8> {
        // base64 is a normal dependency of the crate (the server's); a
        // dev-dependency if it ever stops being one.
        use base64::Engine as _;
        let reply = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "fromSurface": true }),
        );
        let data = reply["data"]
            .as_str()
            .expect("Page.captureScreenshot gives data");
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("the screenshot is base64")
    }

    /// The console errors, failed console assertions and uncaught exceptions
    /// of the page so far: after one more round trip, so every event sent
    /// before it has been read.
    pub fn problems(&self) -> Vec<String> {
        self.call("Runtime.evaluate", json!({ "expression": "0" }));
        self.conn.borrow().problems.clone()
    }

    /// A command to the page's session; its `result`.
    fn call(&self, method: &str, params: Value) -> Value {
        let session = self.conn.borrow().session.clone();
        self.send(Some(&session), method, params)
    }

    /// A command to the browser itself (no session); its `result`.
    fn browser_call(&self, method: &str, params: Value) -> Value {
        self.send(None, method, params)
    }

    fn send(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let result = self.conn.borrow_mut().call(session, method, params, ANSWER);
        result.unwrap_or_else(|e| self.fail(&format!("{method}: {e}")))
    }

    fn fail(&self, what: &str) -> ! {
        let stderr = self.stderr.lock().unwrap().join("\n");
        panic!("Chromium DevTools: {what}\nthe last lines of Chromium's stderr:\n{stderr}");
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        // Politely first (Chromium takes its renderers down with it), then for sure.
        if let Ok(mut conn) = self.conn.try_borrow_mut() {
            let _ = conn.call(None, "Browser.close", json!({}), Duration::from_secs(5));
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Opens the WebSocket of a `ws://host:port/path` DevTools address.
fn connect(url: &str) -> Result<WebSocket<TcpStream>, String> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| format!("not a ws:// address: {url}"))?;
    let host = rest.split('/').next().unwrap_or(rest);
    let stream = TcpStream::connect(host).map_err(|e| format!("connecting to {host}: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    // The handshake blocks, within a bound; afterwards reads return every POLL
    // so each wait can check its deadline.
    stream
        .set_read_timeout(Some(START))
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(ANSWER))
        .map_err(|e| e.to_string())?;
    let (ws, _) = tungstenite::client(url, stream).map_err(|e| format!("handshake: {e}"))?;
    ws.get_ref()
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

impl Connection {
    /// Sends one command and reads messages (recording events) until its
    /// answer arrives or `timeout` passes.
    fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.ws
            .send(Message::text(message.to_string()))
            .map_err(|e| format!("sending the command: {e}"))?;
        let deadline = Instant::now() + timeout;
        loop {
            let read = self.read_one(deadline);
            if let Some(reply) = read.map_err(|e| format!("{e} (waited {timeout:?})"))? {
                if reply["id"].as_u64() == Some(id) {
                    return match reply.get("error") {
                        Some(error) => Err(format!("Chromium answered with an error: {error}")),
                        None => Ok(reply["result"].clone()),
                    };
                }
            }
        }
    }

    /// Reads one message: an answer is returned, an event is recorded (and
    /// `None` returned). Fails when `deadline` passes first.
    fn read_one(&mut self, deadline: Instant) -> Result<Option<Value>, String> {
        let text = loop {
            match self.ws.read() {
                Ok(Message::Text(text)) => break text,
                Ok(Message::Close(frame)) => {
                    return Err(format!("Chromium closed the connection ({frame:?})"))
                }
                // Pings are answered by tungstenite; CDP sends no binary frames.
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    if Instant::now() >= deadline {
                        return Err(
                            "nothing came in time: Chromium hangs, or the machine is overloaded"
                                .into(),
                        );
                    }
                }
                Err(e) => return Err(format!("reading from Chromium: {e}")),
            }
        };
        let message: Value = serde_json::from_str(text.as_str())
            .map_err(|e| format!("Chromium sent something other than JSON ({e}): {text}"))?;
        if message.get("id").is_some() {
            return Ok(Some(message));
        }
        let ours = message["sessionId"].as_str() == Some(self.session.as_str());
        let params = &message["params"];
        match message["method"].as_str() {
            Some("Page.loadEventFired") if ours => self.loaded = true,
            Some("Runtime.consoleAPICalled") if ours => {
                let kind = params["type"].as_str().unwrap_or("");
                if kind == "error" || kind == "assert" {
                    let args: Vec<String> = params["args"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(describe_object)
                        .collect();
                    self.problems
                        .push(format!("console {kind}: {}", args.join(" ")));
                }
            }
            Some("Runtime.exceptionThrown") if ours => {
                let details = describe_exception(&params["exceptionDetails"]);
                self.problems.push(format!("exception: {details}"));
            }
            _ => {}
        }
        Ok(None)
    }
}

/// A readable form of a Runtime.RemoteObject: its value, else its description.
fn describe_object(object: &Value) -> String {
    match (object.get("value"), object["description"].as_str()) {
        (Some(Value::String(s)), _) => s.clone(),
        (Some(value), _) => value.to_string(),
        (None, Some(description)) => description.to_string(),
        (None, None) => object["type"].as_str().unwrap_or("?").to_string(),
    }
}

/// A readable form of a Runtime.ExceptionDetails: the exception's description
/// (with its stack) or the text, and where it was thrown.
fn describe_exception(details: &Value) -> String {
    let what = details["exception"]["description"]
        .as_str()
        .or(details["text"].as_str())
        .unwrap_or("an exception");
    let line = details["lineNumber"].as_u64().unwrap_or(0) + 1;
    let column = details["columnNumber"].as_u64().unwrap_or(0) + 1;
    match details["url"].as_str() {
        Some(url) => format!("{what} (at {url}:{line}:{column})"),
        None => format!("{what} (line {line}, column {column})"),
    }
}
