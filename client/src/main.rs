//! Sevenbag, the game. For now a placeholder window; the real client arrives with its issue.

use macroquad::prelude::*;

fn window_conf() -> Conf {
    Conf {
        window_title: "Sevenbag".to_owned(),
        window_width: 1280,
        window_height: 720,
        ..Default::default()
    }
}

#[macroquad::main(window_conf)]
async fn main() {
    loop {
        clear_background(Color::from_rgba(18, 18, 28, 255));
        draw_text("Sevenbag", 40.0, 80.0, 64.0, WHITE);
        draw_text(
            "The game client is under construction.",
            40.0,
            130.0,
            28.0,
            GRAY,
        );
        next_frame().await;
    }
}
