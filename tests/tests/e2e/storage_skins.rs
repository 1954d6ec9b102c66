//! Published skins behave the same on both storage backends: kept under their id, the same
//! pixels published twice kept once, an identity's oldest dropped past the cap, and a skin the
//! operators removed gone and refused again, with its audit entry.

use sevenbag_storage::fixtures::new_player;
use sevenbag_storage::skins::{MAX_SKIN_BYTES, MAX_SKINS_PER_PLAYER};
use sevenbag_storage::{
    Action, Audit, PostgresStorage, SkinPut, SqliteStorage, Storage, StorageError,
};
use sevenbag_tests::services::Postgres;
use sevenbag_tests::temp_dir;

/// A skin id of the right form, the `n`th.
fn id(n: u32) -> String {
    format!("{n:064x}")
}

fn the_skin_contract(s: &dyn Storage) {
    let ann = s.create_player(&new_player("Ann", 1)).expect("create");
    let ben = s.create_player(&new_player("Ben", 2)).expect("create");

    // Kept under its id; unknown ids read as nothing.
    assert_eq!(
        s.put_skin(&id(1), b"one", ann.id, 10).unwrap(),
        SkinPut::Stored
    );
    assert_eq!(s.skin(&id(1)).unwrap().as_deref(), Some(&b"one"[..]));
    assert_eq!(s.skin(&id(99)).unwrap(), None);

    // The same pixels from another player: still one skin, its first owner's.
    assert_eq!(
        s.put_skin(&id(1), b"one", ben.id, 11).unwrap(),
        SkinPut::Stored
    );
    assert_eq!(s.skin(&id(1)).unwrap().as_deref(), Some(&b"one"[..]));

    // What is not a skin id or a file of a skin's size is refused, never stored.
    assert!(s.put_skin("../x", b"one", ann.id, 12).is_err());
    assert!(s.put_skin(&id(2), b"", ann.id, 12).is_err());
    let huge = vec![0; MAX_SKIN_BYTES + 1];
    assert!(s.put_skin(&id(2), &huge, ann.id, 12).is_err());

    // Past the cap, the identity's oldest goes (skin 1 was republished by Ben, not Ann).
    for n in 0..MAX_SKINS_PER_PLAYER {
        let at = 20 + u64::from(n);
        assert_eq!(
            s.put_skin(&id(100 + n), b"x", ann.id, at).unwrap(),
            SkinPut::Stored
        );
    }
    assert_eq!(s.skin(&id(1)).unwrap(), None, "the oldest of Ann's went");
    assert!(s.skin(&id(100)).unwrap().is_some());

    // Removed by an operator: gone, audited, and refused when published again.
    let audit = Audit {
        actor: "ops".into(),
        action: "remove_skin".into(),
        target: format!("skin:{}", id(100)),
        reason: "offensive".into(),
        detail: "{}".into(),
        at_unix: 50,
    };
    s.moderate(&Action::RemoveSkin { id: id(100) }, &audit)
        .expect("removed");
    assert_eq!(s.skin(&id(100)).unwrap(), None);
    assert_eq!(
        s.put_skin(&id(100), b"x", ben.id, 60).unwrap(),
        SkinPut::Removed
    );
    assert_eq!(s.skin(&id(100)).unwrap(), None);
    let log = s.audit_log(None, 10).unwrap();
    assert_eq!(log[0].audit.target, format!("skin:{}", id(100)));
    // A skin that was never published (or is already removed) is not found.
    let again = s.moderate(&Action::RemoveSkin { id: id(100) }, &audit);
    assert!(matches!(again, Err(StorageError::NotFound(_))), "{again:?}");
}

#[test]
fn sqlite_keeps_the_skin_contract() {
    let t = temp_dir("backends-skins-sqlite");
    let s = SqliteStorage::open(&t.path().join("sevenbag.db")).expect("open");
    the_skin_contract(&s);
}

#[test]
fn postgres_keeps_the_skin_contract() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let s = PostgresStorage::connect(&pg.url()).expect("connect and migrate");
    the_skin_contract(&s);
}
