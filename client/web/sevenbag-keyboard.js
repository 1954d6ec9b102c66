// Sevenbag's plugin, on-screen keyboard part (see sevenbag.js for the conventions).
//
// A canvas never brings up a phone's keyboard; a focused text <input> does. So the page keeps
// one invisible <input> and the game's text fields (names, codes, chat, addresses) type
// through it:
// - sb_text_input_show(kind, text): the game opened a field holding `text`; kind 0 plain text,
//   1 a code (capitals), 2 an address, 3 a number (the keyboard's layout and capitals). The
//   input takes the focus, which brings up the keyboard.
// - sb_text_input_hide(): the field closed; the keyboard goes, keys go to the game again.
// - sb_text_zones(ptr, n): where the game's text fields are, n rectangles of 4 f32 (x, y,
//   width, height in canvas pixels, the game's own coordinates). A tap inside one focuses the
//   input within the tap itself, which is when iPhones allow a keyboard to come up.
// - sb_text_input_active(): 1 while the input has the focus.
// What is typed reaches the game as the keys it already reads: each inserted character as a
// character event, each deleted one as Backspace (the input's text is compared with the
// field's, so autocorrect and composed characters arrive whole), and Enter, Escape, Tab and
// the up and down arrows as key presses; in the order typed, one step per frame.
"use strict";

window.sevenbag = window.sevenbag || {};
window.sevenbag.parts = window.sevenbag.parts || [];

(function () {
    // How long a tap on a zone keeps the focus without the game opening a field.
    var ZONE_GRACE_MS = 600;
    // Keys passed on as key presses (the rest are text).
    var FORWARDED = { Enter: 1, NumpadEnter: 1, Escape: 1, Tab: 1, ArrowUp: 1, ArrowDown: 1 };
    var BACKSPACE = 259; // sapp's key code

    var canvas = document.getElementById("glcanvas");
    var input = document.createElement("input");
    input.type = "text";
    input.id = "sevenbag-text";
    input.setAttribute("autocomplete", "off");
    input.setAttribute("autocorrect", "off");
    input.setAttribute("spellcheck", "false");
    input.setAttribute("enterkeyhint", "done");
    input.setAttribute("aria-label", "text for the game");
    // Invisible, but a real, focusable box: 16 px text so that iPhones do not zoom into it.
    input.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;opacity:0;" +
        "border:0;padding:0;margin:0;font-size:16px;background:transparent;color:transparent;" +
        "caret-color:transparent;pointer-events:none;z-index:-1";
    document.body.appendChild(input);

    var shown = false;
    var last = "";
    var zones = [];

    function exports() {
        return typeof wasm_exports !== "undefined" && wasm_exports ? wasm_exports : null;
    }
    // What is typed waits here and reaches the game one step per animation frame: the game
    // reads a frame's characters and its Backspace together, so "a letter, then delete it"
    // and "delete, then a letter" must not land in the same frame. A step is one Backspace,
    // a run of characters, or one key going down or up.
    var steps = [];
    var pumping = false;
    function pump() {
        var w = exports();
        var step = steps.shift();
        if (w && step) {
            if (step.back) {
                w.key_down(BACKSPACE, 0, false);
                w.key_up(BACKSPACE, 0);
            } else if (step.chars) {
                step.chars.forEach(function (c) {
                    w.key_press(c.codePointAt(0));
                });
            } else if (step.code && typeof into_sapp_keycode === "function") {
                var key = into_sapp_keycode(step.code);
                if (step.down) {
                    w.key_down(key, 0, !!step.repeat);
                } else {
                    w.key_up(key, 0);
                }
            }
        }
        pumping = steps.length > 0;
        if (pumping) {
            window.requestAnimationFrame(pump);
        }
    }
    function queue(step) {
        steps.push(step);
        if (!pumping) {
            pumping = true;
            window.requestAnimationFrame(pump);
        }
    }
    // Queues the difference between what the game has (`last`) and what the input holds.
    function sync() {
        var now = Array.from(input.value);
        var was = Array.from(last);
        var same = 0;
        while (same < now.length && same < was.length && now[same] === was[same]) {
            same++;
        }
        for (var i = same; i < was.length; i++) {
            queue({ back: true });
        }
        if (now.length > same) {
            queue({ chars: now.slice(same) });
        }
        last = input.value;
    }
    input.addEventListener("input", function (e) {
        if (!e.isComposing) {
            sync();
        }
    });
    input.addEventListener("compositionend", sync);
    function code_of(e) {
        if (e.code && FORWARDED[e.code]) {
            return e.code;
        }
        // Phone keyboards often leave `code` empty.
        return FORWARDED[e.key] ? e.key : null;
    }
    input.addEventListener("keydown", function (e) {
        var code = code_of(e);
        if (code) {
            e.preventDefault();
            queue({ code: code, down: true, repeat: e.repeat });
        }
    });
    input.addEventListener("keyup", function (e) {
        var code = code_of(e);
        if (code) {
            e.preventDefault();
            queue({ code: code, down: false });
        }
    });

    function focus_input() {
        if (document.activeElement === input) {
            // Focused but the keyboard may have been put away: bring it back.
            input.blur();
        }
        input.focus({ preventScroll: true });
    }
    function show(kind, text) {
        var attrs = [
            ["text", "off"],
            ["text", "characters"],
            ["url", "off"],
            ["numeric", "off"],
        ][kind] || ["text", "off"];
        input.setAttribute("inputmode", attrs[0]);
        input.setAttribute("autocapitalize", attrs[1]);
        // The game's text is the field's: set it unless what was typed is still on its way
        // (then the game's copy is a frame behind, not different).
        if (!shown || (steps.length === 0 && text !== last)) {
            input.value = text;
            last = text;
        }
        shown = true;
        if (document.activeElement !== input) {
            input.focus({ preventScroll: true });
        }
    }
    function hide() {
        shown = false;
        if (document.activeElement === input) {
            input.blur();
            if (canvas) {
                canvas.focus();
            }
        }
    }
    // Canvas pixels of a touch (what the game's coordinates are).
    function canvas_point(touch) {
        var r = canvas.getBoundingClientRect();
        var sx = r.width > 0 ? canvas.width / r.width : 1;
        var sy = r.height > 0 ? canvas.height / r.height : 1;
        return { x: (touch.clientX - r.left) * sx, y: (touch.clientY - r.top) * sy };
    }
    function in_zone(p) {
        return zones.some(function (z) {
            return p.x >= z[0] && p.y >= z[1] && p.x < z[0] + z[2] && p.y < z[1] + z[3];
        });
    }
    if (canvas) {
        canvas.addEventListener("touchend", function (e) {
            for (var i = 0; i < e.changedTouches.length; i++) {
                if (in_zone(canvas_point(e.changedTouches[i]))) {
                    focus_input();
                    setTimeout(function () {
                        // The game did not open a field after all: keys back to the game.
                        if (!shown && document.activeElement === input) {
                            input.blur();
                            canvas.focus();
                        }
                    }, ZONE_GRACE_MS);
                    return;
                }
            }
        }, true);
    }

    window.sevenbag.keyboard = {
        show: show,
        hide: hide,
        zones: function (list) {
            zones = list.slice(0, 64);
        },
        active: function () {
            return document.activeElement === input;
        },
        shown: function () {
            return shown;
        },
        input: input,
    };

    window.sevenbag.parts.push(function (env, io) {
        env.sb_text_input_show = function (kind, ptr, len) {
            show(kind, io.str(ptr, len));
        };
        env.sb_text_input_hide = hide;
        env.sb_text_input_active = function () {
            return document.activeElement === input ? 1 : 0;
        };
        env.sb_text_zones = function (ptr, n) {
            var count = Math.max(0, Math.min(n, 64));
            var view = new DataView(wasm_memory.buffer, ptr, count * 16);
            var list = [];
            for (var i = 0; i < count; i++) {
                var at = i * 16;
                list.push([0, 4, 8, 12].map(function (o) {
                    return view.getFloat32(at + o, true);
                }));
            }
            zones = list;
        };
    });
})();
