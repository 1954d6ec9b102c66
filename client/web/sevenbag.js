// Sevenbag's miniquad plugin: what the game's wasm module imports from the page (see
// client/src/web.rs). Load after gl.js and the sevenbag-*.js parts, before load("/sevenbag.wasm").
//
// This file: the shared plumbing (strings and bytes across wasm memory, async requests), the
// clock, the page's address, the test hook's <html data-sevenbag> (client/src/probe.rs) and
// WebSockets: events (open, binary message, text message, close) queue up per socket and the
// game polls them once per frame with sb_ws_next / sb_ws_take; sends copy bytes out of wasm
// memory; sb_random (the browser's cryptographic randomness). WebTransport datagram sessions
// (the game's inputs, beside the WebSocket) work as the sockets do: sb_wt_open / sb_wt_send /
// sb_wt_next / sb_wt_take / sb_wt_close. The parts add their own imports (sevenbag-storage.js: localStorage and IndexedDB;
// sevenbag-files.js: downloads, file picker, drag and drop, clipboard, share, links;
// sevenbag-keyboard.js: the on-screen keyboard; sevenbag-device.js: touch screens, safe
// areas, fullscreen, wake lock, vibration, gamepads). docs/CLIENT.md, "The page's imports",
// lists them all.
//
// Conventions: text and bytes go in as (pointer, length) into wasm memory and come out into a
// buffer the game gives (pointer, capacity), returning the bytes written; with capacity 0 a
// call returns the length it would write. Nothing the page hands over is larger than the
// limit the game asked for. Slow work (IndexedDB, the clipboard, the share sheet) is a request:
// the call returns its id at once (0: refused, too many requests waiting) and the game polls
// sb_req_state(id) each frame: 0 pending, 1 done (a result to take, maybe empty), 2 done with
// nothing (no such key), -1 failed (the reason is the result), -2 no such request. The game
// reads the result with sb_req_take(id, ptr, cap) and then frees it with sb_req_free(id).
// Lists (keys) are encoded as: for each item, its UTF-8 length as a u32 little-endian, then
// its bytes.
//
// Everything is also reachable from JavaScript as window.sevenbag.* (what the tests call).
"use strict";

// A WebGL context is antialiased (multisampled) unless asked otherwise, and gl.js asks for the
// defaults. The native game draws with one sample (sample_count: 1 in client/src/main.rs); in a
// browser that renders in software (SwiftShader, no GPU) four samples per pixel halved the frame
// rate (BENCHMARKS.md, "The page at 60 frames/s"). So the game's context gets one sample too.
// A phone's screen has up to 3 device pixels per CSS pixel; drawing each of them costs (9 times
// the pixels of 1) more than it shows. The game draws at most 2 per CSS pixel: gl.js sizes the
// canvas from window.devicePixelRatio, so the page reports at most 2.
(function () {
    var most = 2;
    var own = Object.getOwnPropertyDescriptor(window, "devicePixelRatio");
    var inherited = Object.getOwnPropertyDescriptor(Window.prototype, "devicePixelRatio");
    var real = own || inherited;
    if (!real || !real.get) {
        return;
    }
    try {
        Object.defineProperty(window, "devicePixelRatio", {
            configurable: true,
            get: function () {
                return Math.min(most, real.get.call(window) || 1);
            },
        });
    } catch (e) { /* left as the browser has it */ }
})();

(function () {
    var get_context = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, attributes) {
        if (kind === "webgl" || kind === "webgl2") {
            attributes = Object.assign({}, attributes, { antialias: false });
        }
        return get_context.call(this, kind, attributes);
    };
})();

// The parts (sevenbag-*.js) push a function (env, io) here; register() calls each with the
// import object's env and the shared helpers below.
window.sevenbag = window.sevenbag || {};
window.sevenbag.parts = window.sevenbag.parts || [];

(function () {
    var sockets = {};
    var next_id = 1;
    var encoder = new TextEncoder();
    var decoder = new TextDecoder();

    function bytes(ptr, len) {
        return new Uint8Array(wasm_memory.buffer, ptr, len);
    }
    function str(ptr, len) {
        return decoder.decode(new Uint8Array(wasm_memory.buffer, ptr, len).slice());
    }
    // Copies `data` (a Uint8Array) to ptr, at most cap bytes; returns the bytes copied.
    function put(data, ptr, cap) {
        var n = Math.min(data.length, cap);
        if (n > 0) {
            bytes(ptr, n).set(data.subarray(0, n));
        }
        return n;
    }
    // A list of strings in the list encoding (see the top of this file).
    function encode_list(items) {
        var parts = items.map(function (s) { return encoder.encode(s); });
        var total = parts.reduce(function (n, p) { return n + 4 + p.length; }, 0);
        var out = new Uint8Array(total);
        var view = new DataView(out.buffer);
        var at = 0;
        parts.forEach(function (p) {
            view.setUint32(at, p.length, true);
            out.set(p, at + 4);
            at += 4 + p.length;
        });
        return out;
    }

    // Requests: slow work the game polls for (see the top of this file).
    var MAX_REQUESTS = 256;
    var requests = {};
    var waiting = 0;
    var next_request = 1;
    function as_bytes(value) {
        if (value === undefined || value === null) {
            return new Uint8Array(0);
        }
        if (typeof value === "string") {
            return encoder.encode(value);
        }
        if (value instanceof Uint8Array) {
            return value;
        }
        if (value instanceof ArrayBuffer) {
            return new Uint8Array(value);
        }
        return encoder.encode(String(value));
    }
    // Starts `work` (a function returning a promise of bytes, a string, or `none`) as a
    // request; returns its id, or 0 when too many are waiting.
    function request(work) {
        if (waiting >= MAX_REQUESTS) {
            return 0;
        }
        var id = next_request++;
        var r = { state: 0, data: null };
        requests[id] = r;
        waiting++;
        Promise.resolve().then(work).then(function (value) {
            if (value === request.none) {
                r.state = 2;
                r.data = new Uint8Array(0);
            } else {
                r.state = 1;
                r.data = as_bytes(value);
            }
        }, function (e) {
            r.state = -1;
            r.data = encoder.encode(String((e && e.message) || e || "failed"));
        }).then(function () {
            waiting--;
            if (r.abandoned) {
                delete requests[id];
            }
        });
        return id;
    }
    // What a request's work returns for "done, nothing there".
    request.none = { none: true };

    var io = {
        bytes: bytes, str: str, put: put, encoder: encoder, decoder: decoder,
        encode_list: encode_list, request: request,
    };
    window.sevenbag.io = io;
    // For tests and for the parts: the state of request `id`, and its result.
    window.sevenbag.request_state = function (id) {
        var r = requests[id];
        return r ? r.state : -2;
    };
    window.sevenbag.request_result = function (id) {
        var r = requests[id];
        return r && r.data ? r.data : null;
    };

    function register(importObject) {
        var env = importObject.env;

        env.sb_req_state = function (id) {
            var r = requests[id];
            return r ? r.state : -2;
        };
        env.sb_req_take = function (id, ptr, cap) {
            var r = requests[id];
            if (!r || !r.data) {
                return 0;
            }
            return cap === 0 ? r.data.length : put(r.data, ptr, cap);
        };
        env.sb_req_free = function (id) {
            var r = requests[id];
            if (r && r.state !== 0) {
                delete requests[id];
            } else if (r) {
                r.abandoned = true;
            }
        };
        window.sevenbag.parts.forEach(function (part) {
            part(env, io);
        });

        env.sb_now = function () {
            return performance.now();
        };
        // Fills len bytes at ptr from the browser's cryptographic randomness (player keys).
        env.sb_random = function (ptr, len) {
            var out = bytes(ptr, len);
            // getRandomValues takes at most 65,536 bytes at a time.
            for (var at = 0; at < len; at += 65536) {
                crypto.getRandomValues(out.subarray(at, Math.min(len, at + 65536)));
            }
        };
        // The test hook (client/src/probe.rs): a JSON summary of the screen on
        // <html data-sevenbag>, written only when it changes.
        env.sb_set_state = function (ptr, len) {
            document.documentElement.dataset.sevenbag = str(ptr, len);
        };
        env.sb_location = function (ptr, cap) {
            return put(encoder.encode(String(window.location.href)), ptr, cap);
        };
        env.sb_ws_open = function (uptr, ulen) {
            var id = next_id++;
            var s = { queue: [], current: null, ws: null, failed: false };
            sockets[id] = s;
            try {
                s.ws = new WebSocket(str(uptr, ulen));
            } catch (e) {
                s.queue.push({ kind: 4, data: encoder.encode("bad server address: " + e.message) });
                return id;
            }
            s.ws.binaryType = "arraybuffer";
            s.ws.onopen = function () {
                s.opened = true;
                s.queue.push({ kind: 1 });
            };
            s.ws.onmessage = function (e) {
                if (e.data instanceof ArrayBuffer) {
                    s.queue.push({ kind: 2, data: new Uint8Array(e.data) });
                } else {
                    s.queue.push({ kind: 3 });
                }
            };
            s.ws.onerror = function () {
                s.failed = true;
            };
            s.ws.onclose = function (e) {
                // Browsers hide why a connection failed; code 1006 before "open" means nothing
                // answered (or it was not a WebSocket server), after it that the link broke.
                var why = e.reason ? e.reason
                    : (e.code === 1006 && !s.opened ? "connection refused (code 1006)"
                        : "connection closed (code " + e.code + ")");
                s.queue.push({ kind: 4, data: encoder.encode(why) });
            };
            return id;
        };
        env.sb_ws_send = function (id, ptr, len) {
            var s = sockets[id];
            if (!s || !s.ws || s.ws.readyState !== 1) {
                return 0;
            }
            s.ws.send(bytes(ptr, len).slice());
            return 1;
        };
        env.sb_ws_close = function (id) {
            var s = sockets[id];
            if (!s) {
                return;
            }
            delete sockets[id];
            if (s.ws) {
                s.ws.onopen = s.ws.onmessage = s.ws.onerror = s.ws.onclose = null;
                try {
                    s.ws.close(1000);
                } catch (e) { /* already closed */ }
            }
        };
        // The next event's kind (0: none, 1: open, 2: binary, 3: text, 4: closed); its payload
        // (binary bytes, or the close reason) is then read with sb_ws_take.
        env.sb_ws_next = function (id) {
            var s = sockets[id];
            if (!s || s.queue.length === 0) {
                return 0;
            }
            s.current = s.queue.shift();
            return s.current.kind;
        };
        // With cap 0: the current payload's length. Otherwise copies it (at most cap bytes).
        env.sb_ws_take = function (id, ptr, cap) {
            var s = sockets[id];
            if (!s || !s.current || !s.current.data) {
                return 0;
            }
            if (cap === 0) {
                return s.current.data.length;
            }
            return put(s.current.data, ptr, cap);
        };
    }

    // WebTransport datagram sessions. Events queue up as for sockets: 1 ready, 2 a datagram,
    // 4 closed (with the reason). The server's self-signed certificate is trusted by its hash
    // (serverCertificateHashes: a browser accepts only a short-lived ECDSA one this way); with
    // no hash the browser's own trust applies. Where the page is not a secure context (plain
    // http to a LAN address) there is no WebTransport, and the session closes at once.
    var sessions = {};
    function wt_close(s, why) {
        if (!s.closed) {
            s.closed = true;
            s.queue.push({ kind: 4, data: encoder.encode(why) });
        }
    }
    function register_wt(env) {
        env.sb_wt_open = function (uptr, ulen, hptr, hlen) {
            var id = next_id++;
            var s = { queue: [], current: null, wt: null, writer: null, closed: false };
            sessions[id] = s;
            if (typeof WebTransport === "undefined") {
                wt_close(s, "no WebTransport here (not a secure context, or an old browser)");
                return id;
            }
            var options = {};
            if (hlen === 32) {
                options.serverCertificateHashes = [
                    { algorithm: "sha-256", value: bytes(hptr, hlen).slice() },
                ];
            }
            try {
                s.wt = new WebTransport(str(uptr, ulen), options);
            } catch (e) {
                wt_close(s, "bad datagram address: " + e.message);
                return id;
            }
            s.wt.ready.then(function () {
                if (s.closed) {
                    return;
                }
                s.writer = s.wt.datagrams.writable.getWriter();
                s.queue.push({ kind: 1 });
                var reader = s.wt.datagrams.readable.getReader();
                function pump() {
                    reader.read().then(function (r) {
                        if (r.done || s.closed) {
                            return;
                        }
                        s.queue.push({ kind: 2, data: new Uint8Array(r.value) });
                        pump();
                    }, function (e) {
                        wt_close(s, "datagrams: " + (e && e.message ? e.message : e));
                    });
                }
                pump();
            }, function (e) {
                wt_close(s, "cannot open the datagram session: " + (e && e.message ? e.message : e));
            });
            s.wt.closed.then(function (info) {
                wt_close(s, "datagram session closed" + (info && info.reason ? ": " + info.reason : ""));
            }, function (e) {
                wt_close(s, "datagram session lost: " + (e && e.message ? e.message : e));
            });
            return id;
        };
        env.sb_wt_send = function (id, ptr, len) {
            var s = sessions[id];
            if (!s || !s.writer || s.closed) {
                return 0;
            }
            // Datagrams are unreliable anyway: a refused write is a lost datagram.
            s.writer.write(bytes(ptr, len).slice()).catch(function () {});
            return 1;
        };
        env.sb_wt_close = function (id) {
            var s = sessions[id];
            if (!s) {
                return;
            }
            delete sessions[id];
            s.closed = true;
            if (s.wt) {
                try {
                    s.wt.close({ closeCode: 0, reason: "closed by the game" });
                } catch (e) { /* already closed */ }
            }
        };
        env.sb_wt_next = function (id) {
            var s = sessions[id];
            if (!s || s.queue.length === 0) {
                return 0;
            }
            s.current = s.queue.shift();
            return s.current.kind;
        };
        env.sb_wt_take = function (id, ptr, cap) {
            var s = sessions[id];
            if (!s || !s.current || !s.current.data) {
                return 0;
            }
            if (cap === 0) {
                return s.current.data.length;
            }
            return put(s.current.data, ptr, cap);
        };
    }

    miniquad_add_plugin({
        register_plugin: function (importObject) {
            register(importObject);
            register_wt(importObject.env);
        },
        name: "sevenbag",
        version: 1,
    });
})();
