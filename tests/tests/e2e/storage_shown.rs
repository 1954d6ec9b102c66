//! A notification shown to its player (as a toast) stays unseen in their list but is no
//! longer among those told on their return, the same on SQLite and PostgreSQL.

use sevenbag_storage::fixtures::new_player;
use sevenbag_storage::{NotificationKind, PostgresStorage, SqliteStorage, Storage};
use sevenbag_tests::services::Postgres;
use sevenbag_tests::temp_dir;

fn the_shown_contract(s: &dyn Storage) {
    let ann = s.create_player(&new_player("Ann", 1)).unwrap();
    let ben = s.create_player(&new_player("Ben", 2)).unwrap();
    let invite = NotificationKind::Invite;
    let first = s
        .push_notification(ann.id, invite, "Ben", "{}", 10)
        .unwrap();
    let second = s
        .push_notification(ann.id, invite, "Ben", "{}", 11)
        .unwrap();
    let bens = s
        .push_notification(ben.id, invite, "Ann", "{}", 12)
        .unwrap();
    assert_eq!(
        s.mark_shown(ann.id, &[first, bens]).unwrap(),
        1,
        "only hers"
    );
    assert_eq!(s.mark_shown(ann.id, &[first]).unwrap(), 0, "shown already");
    let ids =
        |list: Vec<sevenbag_storage::Notification>| list.iter().map(|n| n.id).collect::<Vec<_>>();
    assert_eq!(ids(s.unshown_notifications(ann.id, 10).unwrap()), [second]);
    assert_eq!(
        ids(s.unseen_notifications(ann.id, 10).unwrap()),
        [first, second]
    );
    assert_eq!(ids(s.unshown_notifications(ben.id, 10).unwrap()), [bens]);
}

#[test]
fn sqlite_keeps_a_shown_notification_unseen_and_untold() {
    let t = temp_dir("backends-shown-sqlite");
    let s = SqliteStorage::open(&t.path().join("sevenbag.db")).expect("open");
    the_shown_contract(&s);
}

#[test]
fn postgres_keeps_a_shown_notification_unseen_and_untold() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let s = PostgresStorage::connect(&pg.url()).expect("connect and migrate");
    the_shown_contract(&s);
}
