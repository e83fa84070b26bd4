//! `keyplan serve` as a user runs it: the real binary, its exit code and its messages.

use std::process::Command;

#[test]
fn serve_without_a_built_app_names_the_command_that_builds_it_and_exits_1() {
    let empty = tempfile::tempdir().expect("temp dir");
    let output = Command::new(env!("CARGO_BIN_EXE_keyplan"))
        .args(["serve", "--port", "0", "--dist"])
        .arg(empty.path().join("dist"))
        .output()
        .expect("the keyplan binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the built app is missing"), "{stderr}");
    assert!(stderr.contains("make run"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The local TCP ports process `pid` listens on, from `/proc` (Linux).
#[cfg(target_os = "linux")]
fn listening_ports(pid: u32) -> Vec<u16> {
    let sockets: std::collections::BTreeSet<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("the server's open files")
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|target| {
            let target = target.to_string_lossy().into_owned();
            let inode = target.strip_prefix("socket:[")?.strip_suffix(']')?;
            Some(inode.to_string())
        })
        .collect();
    let mut ports = Vec::new();
    for table in ["tcp", "tcp6"] {
        let text = std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).unwrap_or_default();
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        for row in text.lines().skip(1) {
            let fields: Vec<&str> = row.split_whitespace().collect();
            let (Some(local), Some(state), Some(inode)) =
                (fields.get(1), fields.get(3), fields.get(9))
            else {
                continue;
            };
            if *state == "0A" && sockets.contains(*inode) {
                let port = local.rsplit_once(':').map(|(_, p)| p).unwrap_or_default();
                ports.push(u16::from_str_radix(port, 16).expect("a hex port"));
            }
        }
    }
    ports.sort_unstable();
    ports
}

// issue 41: the embedded engine listened on a loopback port of its own, answering any web page
// that found it (CORS `*`, any signature); it is now reached in-process, so the server's only
// socket is its API's, behind the Host and Origin checks.
#[cfg(target_os = "linux")]
#[test]
fn serve_listens_on_its_own_port_only_the_embedded_engine_has_none() {
    use std::io::BufRead;
    let dist = tempfile::tempdir().expect("temp dir");
    std::fs::write(dist.path().join("index.html"), "<!doctype html>").expect("index.html");
    /// Kills the server however the test ends: a server left running would hold the test's
    /// output open.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_keyplan"))
            .args(["serve", "--host", "127.0.0.1", "--port", "0", "--dist"])
            .arg(dist.path())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the keyplan binary starts"),
    );
    // The first line, "keyplan serving <dist> on http://<address>", comes once it listens.
    let mut line = String::new();
    std::io::BufReader::new(child.0.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .expect("the server's first line");
    let ports = listening_ports(child.0.id());
    let port: u16 = line
        .trim()
        .rsplit_once(':')
        .and_then(|(_, port)| port.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
    // What a page did to the engine's port, sent to the one port there is: a preflight and a
    // CreateTable with any signature from a foreign origin, each refused, neither with CORS.
    let exchange = |request: String| {
        use std::io::{Read, Write};
        let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
        socket.write_all(request.as_bytes()).expect("send");
        let mut answer = String::new();
        socket.read_to_string(&mut answer).expect("the answer");
        answer
    };
    let create = r#"{"TableName":"filled","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}"#;
    let from_a_page = [
        format!(
            "OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: x-amz-target,authorization\r\nConnection: close\r\n\r\n"
        ),
        format!(
            "POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\nX-Amz-Target: DynamoDB_20120810.CreateTable\r\nAuthorization: AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{create}",
            create.len()
        ),
    ];
    for request in from_a_page {
        let answer = exchange(request);
        let status = answer.split(' ').nth(1).unwrap_or_default();
        assert!(["403", "405"].contains(&status), "{answer}");
        assert!(
            !answer.to_ascii_lowercase().contains("access-control-allow"),
            "{answer}"
        );
    }
    let tables = exchange(format!(
        "GET /api/engines/embedded/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    ));
    drop(child);
    assert_eq!(ports, [port], "{line}");
    assert!(tables.ends_with(r#""items":{},"tables":[]}"#), "{tables}");
}
