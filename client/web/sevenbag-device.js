// Sevenbag's plugin, device part (see sevenbag.js for the conventions): what the game asks of
// a phone or tablet, and gamepads.
//
// - sb_touch_device(): 1 on a touch screen (a coarse pointer, or touch points), so the game
//   shows its touch controls from the start; it also shows them on the first touch anyway.
// - sb_safe_area(ptr): the insets a notch or rounded corners take, 4 f32 (top, right, bottom,
//   left) in canvas pixels (zero unless the page asks for `viewport-fit=cover`).
// - sb_fullscreen(on): asks for fullscreen (needs a recent tap or key), 1 when asked;
//   sb_is_fullscreen().
// - sb_wake_lock(on): keeps the screen on while a match runs (taken again when the tab comes
//   back to the front), where the browser has the Screen Wake Lock API.
// - sb_vibrate(ms): a short buzz (at most 200 ms) where the browser allows it.
// - sb_gamepads(ptr, cap): the connected gamepads through the Gamepad API, at most 4, each 24
//   bytes: u8 index, u8 1 for the standard mapping, u8 buttons, u8 axes, u32 little-endian bit
//   i set while button i is pressed (standard mapping: 0 A, 1 B, 2 X, 3 Y, 4/5 shoulders, 6/7
//   triggers, 8 back, 9 start, 12-15 d-pad up, down, left, right), then the first 4 axes as
//   f32 (-1 to 1; missing ones 0). Returns the bytes written. sb_gamepad_name(index, ptr,
//   cap): the pad's name as the browser gives it.
"use strict";

window.sevenbag = window.sevenbag || {};
window.sevenbag.parts = window.sevenbag.parts || [];

(function () {
    var MAX_PADS = 4;
    var PAD_BYTES = 24;
    var MAX_VIBRATE_MS = 200;

    var canvas = document.getElementById("glcanvas");

    // While playing, a long press is a held key, not the browser's menu, and two fingers are
    // two keys, not a zoom (the page's CSS says touch-action: none; these are for browsers
    // that still zoom or open a menu anyway).
    if (canvas) {
        canvas.addEventListener("contextmenu", function (e) {
            e.preventDefault();
        });
    }
    ["gesturestart", "gesturechange", "dblclick"].forEach(function (kind) {
        document.addEventListener(kind, function (e) {
            e.preventDefault();
        }, { passive: false });
    });

    function touch_device() {
        var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
        return !!(coarse || navigator.maxTouchPoints > 0);
    }

    // env(safe-area-inset-*) is only readable through a style: a hidden probe carries them.
    var probe = document.createElement("div");
    probe.style.cssText = "position:fixed;left:0;top:0;visibility:hidden;pointer-events:none;" +
        "padding:env(safe-area-inset-top,0px) env(safe-area-inset-right,0px) " +
        "env(safe-area-inset-bottom,0px) env(safe-area-inset-left,0px)";
    document.body.appendChild(probe);
    function safe_area() {
        var style = window.getComputedStyle(probe);
        var r = canvas ? canvas.getBoundingClientRect() : { width: 0 };
        var scale = canvas && r.width > 0 ? canvas.width / r.width : 1;
        return ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].map(function (k) {
            return (parseFloat(style[k]) || 0) * scale;
        });
    }

    function fullscreen(on) {
        var root = document.documentElement;
        try {
            if (on && !document.fullscreenElement && root.requestFullscreen) {
                root.requestFullscreen({ navigationUI: "hide" }).catch(function () {});
                return true;
            }
            if (!on && document.fullscreenElement && document.exitFullscreen) {
                document.exitFullscreen().catch(function () {});
                return true;
            }
        } catch (e) {
            return false;
        }
        return false;
    }

    var wake = { wanted: false, lock: null };
    function take_wake_lock() {
        if (!wake.wanted || wake.lock || !navigator.wakeLock ||
            document.visibilityState !== "visible") {
            return;
        }
        navigator.wakeLock.request("screen").then(function (lock) {
            wake.lock = lock;
            lock.addEventListener("release", function () {
                wake.lock = null;
            });
            if (!wake.wanted) {
                lock.release().catch(function () {});
            }
        }, function () { /* refused: the screen may dim */ });
    }
    function wake_lock(on) {
        wake.wanted = !!on;
        if (on) {
            take_wake_lock();
        } else if (wake.lock) {
            wake.lock.release().catch(function () {});
            wake.lock = null;
        }
    }
    // The browser lets a wake lock go when the tab is hidden.
    document.addEventListener("visibilitychange", take_wake_lock);

    function vibrate(ms) {
        if (!navigator.vibrate) {
            return false;
        }
        try {
            return navigator.vibrate(Math.max(0, Math.min(ms, MAX_VIBRATE_MS)));
        } catch (e) {
            return false;
        }
    }

    function pads() {
        var list = [];
        var all;
        try {
            all = navigator.getGamepads ? navigator.getGamepads() : [];
        } catch (e) {
            return list; // not allowed here (an insecure page in some browsers)
        }
        for (var i = 0; i < all.length && list.length < MAX_PADS; i++) {
            if (all[i] && all[i].connected) {
                list.push(all[i]);
            }
        }
        return list;
    }
    function gamepad_bytes() {
        var list = pads();
        var out = new Uint8Array(list.length * PAD_BYTES);
        var view = new DataView(out.buffer);
        list.forEach(function (pad, n) {
            var at = n * PAD_BYTES;
            var bits = 0;
            var buttons = pad.buttons || [];
            for (var b = 0; b < Math.min(buttons.length, 32); b++) {
                var button = buttons[b];
                if (button && (button.pressed || button.value > 0.5)) {
                    bits |= 1 << b;
                }
            }
            var axes = pad.axes || [];
            view.setUint8(at, pad.index & 0xff);
            view.setUint8(at + 1, pad.mapping === "standard" ? 1 : 0);
            view.setUint8(at + 2, Math.min(buttons.length, 255));
            view.setUint8(at + 3, Math.min(axes.length, 255));
            view.setUint32(at + 4, bits >>> 0, true);
            for (var a = 0; a < 4; a++) {
                var v = Number(axes[a]);
                view.setFloat32(at + 8 + a * 4, isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0,
                    true);
            }
        });
        return out;
    }
    function gamepad_name(index) {
        var pad = pads().filter(function (p) {
            return p.index === index;
        })[0];
        return pad ? String(pad.id).slice(0, 128) : "";
    }

    window.sevenbag.device = {
        touch: touch_device,
        safe_area: safe_area,
        fullscreen: fullscreen,
        wake_lock: wake_lock,
        vibrate: vibrate,
        gamepads: gamepad_bytes,
        gamepad_name: gamepad_name,
    };

    window.sevenbag.parts.push(function (env, io) {
        env.sb_touch_device = function () {
            return touch_device() ? 1 : 0;
        };
        env.sb_safe_area = function (ptr) {
            var view = new DataView(wasm_memory.buffer, ptr, 16);
            safe_area().forEach(function (v, i) {
                view.setFloat32(i * 4, v, true);
            });
        };
        env.sb_fullscreen = function (on) {
            return fullscreen(!!on) ? 1 : 0;
        };
        env.sb_is_fullscreen = function () {
            return document.fullscreenElement ? 1 : 0;
        };
        env.sb_wake_lock = function (on) {
            wake_lock(!!on);
        };
        env.sb_vibrate = function (ms) {
            return vibrate(ms) ? 1 : 0;
        };
        env.sb_gamepads = function (ptr, cap) {
            var data = gamepad_bytes();
            return cap === 0 ? data.length : io.put(data, ptr, cap);
        };
        env.sb_gamepad_name = function (index, ptr, cap) {
            var data = io.encoder.encode(gamepad_name(index));
            return cap === 0 ? data.length : io.put(data, ptr, cap);
        };
    });
})();
