use super::*;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::sync::{Arc, Mutex as StdMutex};

fn record<'a>(id: u64) -> Record<'a> {
    Record {
        time: now_rfc3339(),
        id,
        agent: "claude-code".into(),
        host: None,
        session: "s",
        tool: "Bash",
        subject: "ls".into(),
        mode: Mode::AllowRead,
        mode_of: None,
        class: Judged::Class(Class::ReadOnly),
        route: Route::Allow,
        decision: Ending::Allow,
        decider: Decider::Rule,
        reason: None,
        rule: None,
        latency_ms: 0.01,
        advice: None,
        confidence: None,
        risk: None,
        agreed: None,
        device: None,
        edited: None,
        shape: None,
        kind: None,
        batch: None,
        plan: None,
    }
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn ids(path: &Path) -> Vec<u64> {
    lines(path)
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

#[test]
fn records_are_appended_one_json_line_each_to_a_private_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state/audit.jsonl");
    let audit = Audit::open(&path).unwrap();
    audit.write(&record(1)).unwrap();
    audit.write(&record(2)).unwrap();
    assert_eq!(ids(&path), [1, 2]);
    let first: serde_json::Value = serde_json::from_str(&lines(&path)[0]).unwrap();
    assert_eq!(first["run"], audit.run());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn a_symlink_at_the_audit_path_is_refused_and_its_target_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("precious");
    std::fs::write(&target, "mine\n").unwrap();
    let path = dir.path().join("audit.jsonl");
    std::os::unix::fs::symlink(&target, &path).unwrap();
    let err = Audit::open(&path).unwrap_err();
    assert!(matches!(err, AuditError::Symlink { .. }), "{err}");
    assert!(err.to_string().contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine\n");
}

#[test]
fn a_device_a_pipe_or_a_folder_is_refused_as_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for path in [Path::new("/dev/full"), &fifo, dir.path()] {
        match Audit::open(path) {
            Err(err @ AuditError::NotAFile { .. }) => {
                assert!(err.to_string().contains("not a regular file"), "{err}")
            }
            other => panic!("{} must be refused: {other:?}", path.display()),
        }
    }
}

#[test]
fn a_file_of_another_user_is_refused() {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: needs root to make a file of another user");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    std::fs::write(&path, "").unwrap();
    std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    let err = Audit::open(&path).unwrap_err();
    assert!(
        matches!(err, AuditError::NotYours { owner: 65534, .. }),
        "{err}"
    );
}

/// A writer that takes at most `room` more bytes, like a disk filling up.
#[derive(Debug, Clone)]
struct Filling {
    written: Arc<StdMutex<Vec<u8>>>,
    room: Arc<StdMutex<usize>>,
}

impl Write for Filling {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut room = self.room.lock().unwrap();
        if *room == 0 {
            return Err(io::Error::from_raw_os_error(libc::ENOSPC));
        }
        let n = buf.len().min(*room);
        *room -= n;
        self.written.lock().unwrap().extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_record_cut_short_by_a_full_disk_is_never_glued_to_the_next() {
    let disk = Filling {
        written: Arc::default(),
        room: Arc::new(StdMutex::new(usize::MAX)),
    };
    let audit = Audit::with_sink(Box::new(Lines::new(disk.clone(), false)));
    audit.write(&record(1)).unwrap();
    *disk.room.lock().unwrap() = 20;
    assert!(
        audit.write(&record(2)).is_err(),
        "a short write is an error"
    );
    assert!(audit.write(&record(3)).is_err(), "a full disk is an error");
    *disk.room.lock().unwrap() = usize::MAX;
    audit.write(&record(4)).unwrap();
    let text = String::from_utf8(disk.written.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[1].len(), 20, "the cut record alone on its line");
    let last: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(last["id"], 4, "the next record is whole, on a fresh line");
}

#[test]
fn a_file_that_ends_mid_line_gets_its_next_record_on_a_fresh_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    std::fs::write(&path, "{\"id\":7}\n{\"id\":8,\"cut").unwrap();
    let audit = Audit::open(&path).unwrap();
    assert_eq!(audit.first_id(), 8, "ids go on after the last whole record");
    audit.write(&record(8)).unwrap();
    let lines = lines(&path);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], "{\"id\":8,\"cut");
    assert!(lines[2].starts_with("{\"run\":"), "{}", lines[2]);
}

#[test]
fn a_line_cut_by_another_writer_of_the_file_is_never_glued_to_the_next_record() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    // The console's writer and the web console's, each with its own handle, as they run.
    let console = Audit::open(&path).unwrap();
    let web = Audit::open(&path).unwrap();
    console.write(&record(1)).unwrap();
    // What a write of the web's cut short by a full disk leaves behind.
    let mut other = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    other.write_all(b"{\"web\":\"refused\",\"pa").unwrap();
    console.write(&record(2)).unwrap();
    web.write_other(&serde_json::json!({"web": "refused"}))
        .unwrap();
    other.write_all(b"{\"id\":3,\"cu").unwrap();
    web.write_other(&serde_json::json!({"web": "paired"}))
        .unwrap();
    console.write(&record(4)).unwrap();
    let lines = lines(&path);
    assert_eq!(lines.len(), 7, "{lines:#?}");
    assert_eq!(lines[1], "{\"web\":\"refused\",\"pa");
    assert_eq!(lines[4], "{\"id\":3,\"cu");
    for i in [0, 2, 3, 5, 6] {
        let whole: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
        assert!(whole.get("run").is_some(), "{}", lines[i]);
    }
}

#[test]
fn a_deleted_or_rotated_file_is_noticed_and_opened_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let audit = Audit::open(&path).unwrap();
    audit.write(&record(1)).unwrap();
    std::fs::rename(&path, dir.path().join("audit.jsonl.1")).unwrap();
    audit.write(&record(2)).unwrap();
    assert_eq!(ids(&path), [2], "the rotated file is replaced by a new one");
    assert_eq!(ids(&dir.path().join("audit.jsonl.1")), [1]);
    std::fs::remove_file(&path).unwrap();
    audit.write(&record(3)).unwrap();
    assert_eq!(ids(&path), [3], "a deleted file is made again");
    std::os::unix::fs::symlink(dir.path().join("audit.jsonl.1"), dir.path().join("x")).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::rename(dir.path().join("x"), &path).unwrap();
    assert!(
        audit.write(&record(4)).is_err(),
        "a link planted later is refused too"
    );
    assert_eq!(ids(&dir.path().join("audit.jsonl.1")), [1]);
}

#[test]
fn ids_go_on_from_the_file_and_each_run_has_its_own_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let first = Audit::open(&path).unwrap();
    assert_eq!(first.first_id(), 1);
    first.write(&record(41)).unwrap();
    let second = Audit::open(&path).unwrap();
    assert_eq!(second.first_id(), 42);
    assert_ne!(first.run(), second.run());
}

#[test]
fn no_raw_control_bidi_or_invisible_character_reaches_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let audit = Audit::open(&path).unwrap();
    let sneaky = "ls\u{1b}[2J\u{202E}txt.exe\u{2066}\u{200B}\u{2028}\u{85}\u{E0041}\u{34F}\u{FEFF}";
    let mut r = record(1);
    r.subject = sneaky.into();
    r.session = "s\u{202D}";
    audit.write(&r).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.is_ascii(), "{}", String::from_utf8_lossy(&bytes));
    assert!(!bytes.contains(&0x1b));
    let back: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        back["subject"], sneaky,
        "the JSON still means the same text"
    );
    assert_eq!(back["session"], "s\u{202D}");
}

#[test]
fn shorten_cuts_on_characters_and_marks_the_cut() {
    assert_eq!(shorten("héllo", 3), "hél…");
    assert_eq!(shorten("hi", 3), "hi");
}

#[test]
fn a_record_spells_each_typed_field_as_its_type_names_it() {
    let typed = Record {
        mode: Mode::AutoMcp,
        mode_of: None,
        class: Judged::Class(Class::Risky(crate::core::shell::Risk::Pager)),
        route: Route::Race,
        decision: Ending::Withdrawn,
        decider: Decider::SessionAllow,
        advice: Some(Verdict::ReadOnly),
        ..record(1)
    };
    let json = serde_json::to_value(&typed).unwrap();
    assert_eq!(json["mode"], Mode::AutoMcp.name());
    assert_eq!(json["class"], "unverified (pager)");
    assert_eq!(json["route"], "race");
    assert_eq!(json["decision"], "withdrawn");
    assert_eq!(json["decider"], "session-allow");
    assert_eq!(json["advice"], "read-only");
    let after = Record {
        class: Judged::AfterTool,
        ..record(2)
    };
    assert_eq!(serde_json::to_value(&after).unwrap()["class"], "after-tool");
}
