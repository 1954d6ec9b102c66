// Sevenbag's plugin, files and links part (see sevenbag.js for the conventions).
//
// - sb_download(name, bytes, mime): saves bytes as a file (a .sbrp replay) through the
//   browser's download; 1 when started.
// - sb_files_accept(extensions, max_bytes): what the game opens: a comma-separated list such as
//   ".sbrp" and the largest file it takes. Until called, no file is taken.
// - sb_file_pick(): opens the browser's file picker (needs a recent tap, click or key: the
//   browser's rule). Picked and dropped files queue up; the game polls sb_file_next(): 0 none,
//   1 a file (sb_file_take(0, ...) its name, sb_file_take(1, ...) its bytes), 2 a refused one
//   (its name, then why: too large, wrong kind, unreadable). At most 16 wait; more are refused.
// - Drag and drop onto the page: the same queue (gl.js's own drop handling, which reads any
//   file whole into wasm memory, never sees the event).
// - sb_clipboard_write(text): a request; copies text (a link) to the clipboard, with the
//   older copy command where the Clipboard API is missing (plain http on a LAN address).
// - sb_share(title, url): a request; the phone's share sheet where there is one, else fails
//   with "no share sheet" (copy the link instead).
// - sb_history_replace(path): shows `path` (same site, starting with "/") in the address bar
//   without loading it, so the address is the link to what is on screen.
// - sb_image_decode(bytes, max_pixels): a request; the browser's own decoder reads a PNG the
//   game has already checked (signature, chunks, header, limits: sevenbag_skin::check) into
//   8-bit RGBA, unpremultiplied: the result is width and height (u32 little-endian each),
//   then the pixels row by row. Refused past max_pixels.
// - sb_fetch_file(url, max): a request; reads the file at an http(s) link (a skin PNG pasted
//   in Settings), at most max bytes (more is refused as it arrives, not after), without
//   cookies, within 15 s. The other site must let pages read it (CORS); the reason a fetch
//   failed is said in words.
"use strict";

window.sevenbag = window.sevenbag || {};
window.sevenbag.parts = window.sevenbag.parts || [];

(function () {
    // Most files waiting for the game.
    var MAX_QUEUED = 16;
    // Largest file ever taken, whatever the game asks (the replay format's own limit).
    var MAX_FILE = 64 * 1024 * 1024;
    // Longest file name kept (characters).
    var MAX_NAME = 255;

    var accept = { extensions: [], max: 0 };
    var queue = [];
    var current = null;
    var encoder = new TextEncoder();

    function refuse(name, why) {
        if (queue.length < MAX_QUEUED) {
            queue.push({ kind: 2, name: name, data: encoder.encode(why) });
        }
    }
    function wanted(name) {
        var lower = name.toLowerCase();
        return accept.extensions.length === 0 || accept.extensions.some(function (e) {
            return lower.endsWith(e);
        });
    }
    // Takes one File (from the picker or a drop) into the queue, or a refusal naming it.
    function take(file) {
        var name = String(file.name || "file").slice(0, MAX_NAME);
        if (accept.max === 0) {
            return Promise.resolve(refuse(name, "the game is not opening files here"));
        }
        if (queue.length >= MAX_QUEUED) {
            return Promise.resolve();
        }
        if (!wanted(name)) {
            return Promise.resolve(refuse(name, "not a " + accept.extensions.join(" or ") +
                " file"));
        }
        if (file.size > accept.max) {
            return Promise.resolve(refuse(name, "it is " + file.size + " bytes; the most is " +
                accept.max));
        }
        return file.arrayBuffer().then(function (buffer) {
            if (buffer.byteLength > accept.max) {
                refuse(name, "it is " + buffer.byteLength + " bytes; the most is " + accept.max);
            } else if (queue.length < MAX_QUEUED) {
                queue.push({ kind: 1, name: name, data: new Uint8Array(buffer) });
            }
        }, function (e) {
            refuse(name, "it cannot be read: " + ((e && e.message) || e));
        });
    }
    function take_all(list) {
        var files = Array.prototype.slice.call(list || []);
        return files.reduce(function (done, f) {
            return done.then(function () {
                return take(f);
            });
        }, Promise.resolve());
    }

    var picker = null;
    function pick() {
        if (!picker) {
            picker = document.createElement("input");
            picker.type = "file";
            picker.multiple = true;
            picker.style.display = "none";
            picker.addEventListener("change", function () {
                var files = picker.files;
                take_all(files).then(function () {
                    picker.value = "";
                });
            });
            document.body.appendChild(picker);
        }
        picker.accept = accept.extensions.join(",");
        picker.click();
        return true;
    }

    // Drops: ours, in the capture phase, before gl.js's window.ondrop.
    function dragging(on) {
        document.documentElement.classList.toggle("dropping", on);
    }
    window.addEventListener("dragover", function (e) {
        e.preventDefault();
        e.stopImmediatePropagation();
        dragging(true);
    }, true);
    window.addEventListener("dragleave", function (e) {
        if (!e.relatedTarget) {
            dragging(false);
        }
    }, true);
    window.addEventListener("drop", function (e) {
        e.preventDefault();
        e.stopImmediatePropagation();
        dragging(false);
        take_all(e.dataTransfer && e.dataTransfer.files);
    }, true);

    function download(name, bytes, mime) {
        var blob = new Blob([bytes], { type: mime || "application/octet-stream" });
        var url = URL.createObjectURL(blob);
        var a = document.createElement("a");
        a.href = url;
        a.download = String(name).slice(0, MAX_NAME);
        a.style.display = "none";
        document.body.appendChild(a);
        a.click();
        a.remove();
        // Some browsers read the blob after click() returns.
        setTimeout(function () {
            URL.revokeObjectURL(url);
        }, 60000);
        return true;
    }

    function copy_with_command(text) {
        var area = document.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.style.position = "fixed";
        area.style.top = "0";
        area.style.opacity = "0";
        document.body.appendChild(area);
        var focused = document.activeElement;
        area.select();
        var ok = false;
        try {
            ok = document.execCommand("copy");
        } catch (e) {
            ok = false;
        }
        area.remove();
        if (focused && focused.focus) {
            focused.focus();
        }
        if (!ok) {
            throw new Error("the browser did not allow copying");
        }
        return "";
    }
    function copy(text) {
        if (navigator.clipboard && navigator.clipboard.writeText) {
            return navigator.clipboard.writeText(text).then(function () {
                return "";
            }, function () {
                return copy_with_command(text);
            });
        }
        return Promise.resolve().then(function () {
            return copy_with_command(text);
        });
    }

    function share(title, url) {
        if (!navigator.share) {
            return Promise.reject(new Error("no share sheet"));
        }
        return navigator.share({ title: title, url: url }).then(function () {
            return "";
        });
    }

    // The browser decodes the image; the game checked the file before and checks the pixels'
    // size after. Drawn at its own size, with no colour conversion or premultiplication.
    function decode_image(data, max_pixels) {
        var blob = new Blob([data], { type: "image/png" });
        return createImageBitmap(blob, {
            premultiplyAlpha: "none", colorSpaceConversion: "none",
        }).then(function (bitmap) {
            var w = bitmap.width, h = bitmap.height;
            if (w * h > max_pixels || w === 0 || h === 0) {
                bitmap.close();
                throw new Error("the image is " + w + "×" + h + " pixels: over the limit");
            }
            var canvas = document.createElement("canvas");
            canvas.width = w;
            canvas.height = h;
            var g = canvas.getContext("2d", { willReadFrequently: true });
            g.drawImage(bitmap, 0, 0);
            bitmap.close();
            var pixels = g.getImageData(0, 0, w, h).data;
            var out = new Uint8Array(8 + pixels.length);
            var view = new DataView(out.buffer);
            view.setUint32(0, w, true);
            view.setUint32(4, h, true);
            out.set(pixels, 8);
            return out;
        }, function () {
            throw new Error("the browser could not read it as an image");
        });
    }

    // Longest wait for a linked file.
    var FETCH_MS = 15000;
    // The file at `url`, read up to `max` bytes as it arrives.
    function fetch_file(url, max) {
        var link;
        try {
            link = new URL(url);
        } catch (e) {
            return Promise.reject(new Error("it is not a link"));
        }
        if (link.protocol !== "https:" && link.protocol !== "http:") {
            return Promise.reject(new Error("only http and https links are read"));
        }
        var control = new AbortController();
        var timer = setTimeout(function () {
            control.abort();
        }, FETCH_MS);
        var too_large = function () {
            return new Error("it is more than " + max + " bytes");
        };
        return fetch(link.href, {
            credentials: "omit", redirect: "follow", signal: control.signal,
        }).then(function (answer) {
            if (!answer.ok) {
                throw new Error("the site answered " + answer.status);
            }
            var said = Number(answer.headers.get("content-length"));
            if (said > max) {
                control.abort();
                throw too_large();
            }
            var reader = answer.body.getReader();
            var parts = [];
            var total = 0;
            function more() {
                return reader.read().then(function (chunk) {
                    if (chunk.done) {
                        var out = new Uint8Array(total);
                        var at = 0;
                        parts.forEach(function (p) {
                            out.set(p, at);
                            at += p.length;
                        });
                        return out;
                    }
                    total += chunk.value.length;
                    if (total > max) {
                        control.abort();
                        throw too_large();
                    }
                    parts.push(chunk.value);
                    return more();
                });
            }
            return more();
        }, function () {
            throw new Error(control.signal.aborted ? "the site took too long to answer" :
                "the site could not be reached, or does not let other pages read its " +
                "files (CORS)");
        }).finally(function () {
            clearTimeout(timer);
        });
    }

    // Same site only: a path, not a scheme or another host.
    function replace_path(path) {
        if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//") ||
            path.length > 512) {
            return false;
        }
        try {
            window.history.replaceState(null, "", path);
            return true;
        } catch (e) {
            return false;
        }
    }

    window.sevenbag.files = {
        accept: function (extensions, max) {
            accept.extensions = String(extensions).split(",").map(function (e) {
                return e.trim().toLowerCase();
            }).filter(function (e) {
                return e.length > 0;
            });
            accept.max = Math.max(0, Math.min(max, MAX_FILE));
        },
        pick: pick,
        take: take_all,
        // The next waiting file as {kind, name, data}, or null.
        next: function () {
            return queue.shift() || null;
        },
        waiting: function () {
            return queue.length;
        },
        download: download,
    };
    window.sevenbag.links = { copy: copy, share: share, replace_path: replace_path };
    window.sevenbag.images = { decode: decode_image };
    window.sevenbag.links.fetch = fetch_file;

    window.sevenbag.parts.push(function (env, io) {
        env.sb_download = function (nptr, nlen, ptr, len, mptr, mlen) {
            try {
                return download(io.str(nptr, nlen), io.bytes(ptr, len).slice(),
                    io.str(mptr, mlen)) ? 1 : 0;
            } catch (e) {
                return 0;
            }
        };
        env.sb_files_accept = function (eptr, elen, max) {
            window.sevenbag.files.accept(io.str(eptr, elen), max);
        };
        env.sb_file_pick = function () {
            try {
                return pick() ? 1 : 0;
            } catch (e) {
                return 0;
            }
        };
        env.sb_file_next = function () {
            current = queue.shift() || null;
            return current ? current.kind : 0;
        };
        // part 0: the name; part 1: the bytes (or why it was refused).
        env.sb_file_take = function (part, ptr, cap) {
            if (!current) {
                return 0;
            }
            var data = part === 0 ? io.encoder.encode(current.name) : current.data;
            return cap === 0 ? data.length : io.put(data, ptr, cap);
        };
        env.sb_clipboard_write = function (ptr, len) {
            var text = io.str(ptr, len);
            return io.request(function () {
                return copy(text);
            });
        };
        env.sb_share = function (tptr, tlen, uptr, ulen) {
            var title = io.str(tptr, tlen);
            var url = io.str(uptr, ulen);
            return io.request(function () {
                return share(title, url);
            });
        };
        env.sb_image_decode = function (ptr, len, max_pixels) {
            var data = io.bytes(ptr, len).slice();
            return io.request(function () {
                return decode_image(data, max_pixels);
            });
        };
        env.sb_fetch_file = function (ptr, len, max) {
            var url = io.str(ptr, len);
            return io.request(function () {
                return fetch_file(url, max);
            });
        };
        env.sb_history_replace = function (ptr, len) {
            return replace_path(io.str(ptr, len)) ? 1 : 0;
        };
    });
})();
