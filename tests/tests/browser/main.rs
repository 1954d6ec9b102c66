//! End-to-end tests of the page in real headless Chromium against the real server. The tests take turns on one browser (`sevenbag_tests::page::take_turn`).

mod browser;
mod browser_battle;
mod browser_ffa_replay;
mod browser_friends;
mod browser_link_identity;
mod browser_page;
mod browser_parity;
mod browser_phone_chat;
mod browser_play;
mod browser_skins;
