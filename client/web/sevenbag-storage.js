// Sevenbag's plugin, storage part (see sevenbag.js for the conventions): the browser's own
// places for what the desktop game keeps in files.
//
// - localStorage (small, synchronous: settings, the player key, bests): sb_storage_len, _get,
//   _set (as before), _remove, _keys (a prefix's keys, list-encoded).
// - IndexedDB (larger, asynchronous: saved replays, runs): one database "sevenbag", one object
//   store "files" of byte arrays under text keys. sb_idb_get(key, max) (fails naming the size
//   when the stored value is over max bytes, or is not bytes), _put, _delete, _keys(prefix):
//   all requests.
// - sb_storage_persist(): a request; asks the browser not to evict the site's storage under
//   pressure (the player key lives there), answering "1" when granted.
// - The page's files (what the desktop game keeps in its folders: the player key, replays, solo
//   runs and bests, challenge records): the entries of the same IndexedDB store whose keys are
//   paths under FS_ROOT, read whole into memory as the page opens and kept there, so the game
//   reads and writes them synchronously, as files; each change is then written to IndexedDB in
//   order, and other tabs of the site hear of it. sb_fs_ready() (1 ready, 0 still reading, -1
//   IndexedDB unusable: the files live in memory only, sb_fs_problem says why),
//   sb_fs_read(path, ptr, cap) (-1: no such file), sb_fs_write(path, bytes) (0: refused, over
//   the limits), sb_fs_remove(path), sb_fs_rename(from, to), sb_fs_list(prefix, ptr, cap)
//   (list-encoded paths), sb_fs_skipped(ptr, cap) (list-encoded "key: why" for each stored
//   entry not taken: not bytes, too large, another version's, a key that is not a path),
//   sb_fs_problem(ptr, cap) (the last failure to write to IndexedDB, then cleared).
//
// Keys are the game's to choose (versioned names under "sevenbag/"); this file bounds them and
// the values, and never trusts what it reads back: the game validates every entry as it
// would a file.
"use strict";

window.sevenbag = window.sevenbag || {};
window.sevenbag.parts = window.sevenbag.parts || [];

(function () {
    // Longest key, in UTF-16 code units (what JavaScript strings count).
    var MAX_KEY = 256;
    // Largest localStorage value written (browsers give a few MB per site in all).
    var MAX_LOCAL = 4 * 1024 * 1024;
    // Largest IndexedDB value written or read: the replay format's own limit.
    var MAX_IDB = 64 * 1024 * 1024;

    function check_key(key) {
        if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY) {
            throw new Error("a storage key is 1 to " + MAX_KEY + " characters");
        }
    }

    var local = {
        get: function (key) {
            try {
                return window.localStorage.getItem(key);
            } catch (e) {
                return null;
            }
        },
        // False when the browser refused (storage full, off, or a value over the limit).
        set: function (key, value) {
            try {
                check_key(key);
                if (value.length > MAX_LOCAL) {
                    return false;
                }
                window.localStorage.setItem(key, value);
                return true;
            } catch (e) {
                return false;
            }
        },
        remove: function (key) {
            try {
                window.localStorage.removeItem(key);
                return true;
            } catch (e) {
                return false;
            }
        },
        // Every key starting with `prefix`, sorted.
        keys: function (prefix) {
            var out = [];
            try {
                var store = window.localStorage;
                for (var i = 0; i < store.length; i++) {
                    var k = store.key(i);
                    if (k !== null && k.startsWith(prefix)) {
                        out.push(k);
                    }
                }
            } catch (e) {
                return [];
            }
            return out.sort();
        },
    };

    var db_promise = null;
    function open_db() {
        if (db_promise) {
            return db_promise;
        }
        db_promise = new Promise(function (resolve, reject) {
            if (!window.indexedDB) {
                reject(new Error("this browser keeps no IndexedDB for the page"));
                return;
            }
            var open = window.indexedDB.open("sevenbag", 1);
            open.onupgradeneeded = function () {
                if (!open.result.objectStoreNames.contains("files")) {
                    open.result.createObjectStore("files");
                }
            };
            open.onsuccess = function () {
                var db = open.result;
                // Another tab upgrading the database: let it, and open again next time.
                db.onversionchange = function () {
                    db.close();
                    db_promise = null;
                };
                resolve(db);
            };
            open.onerror = function () {
                db_promise = null;
                reject(new Error("cannot open the page's IndexedDB: " +
                    (open.error && open.error.message)));
            };
            open.onblocked = function () {
                db_promise = null;
                reject(new Error("the page's IndexedDB is held open by an older tab"));
            };
        });
        return db_promise;
    }
    // Runs `body(store)` in a transaction; resolves with the last request's result once the
    // transaction has completed (so a put is on disk, as far as the browser says).
    function transact(mode, body) {
        return open_db().then(function (db) {
            return new Promise(function (resolve, reject) {
                var tx = db.transaction("files", mode);
                var req = body(tx.objectStore("files"));
                tx.oncomplete = function () {
                    resolve(req ? req.result : undefined);
                };
                tx.onerror = tx.onabort = function () {
                    reject(new Error((tx.error && tx.error.message) || "IndexedDB refused"));
                };
            });
        });
    }
    function to_bytes(value) {
        if (value instanceof Uint8Array) {
            return value;
        }
        if (value instanceof ArrayBuffer) {
            return new Uint8Array(value);
        }
        if (ArrayBuffer.isView(value)) {
            return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
        }
        return null;
    }

    var idb = {
        // The bytes under `key`; `sevenbag.io.request.none` when there are none.
        get: function (key, max) {
            check_key(key);
            var limit = Math.min(max || MAX_IDB, MAX_IDB);
            return transact("readonly", function (store) {
                return store.get(key);
            }).then(function (value) {
                if (value === undefined) {
                    return window.sevenbag.io.request.none;
                }
                var b = to_bytes(value);
                if (b === null) {
                    throw new Error(key + " holds " + typeof value + ", not bytes");
                }
                if (b.length > limit) {
                    throw new Error(key + " holds " + b.length + " bytes, over the " +
                        limit + "-byte limit");
                }
                return b;
            });
        },
        put: function (key, bytes) {
            check_key(key);
            if (bytes.length > MAX_IDB) {
                return Promise.reject(new Error(bytes.length + " bytes is over the " +
                    MAX_IDB + "-byte limit"));
            }
            var copy = new Uint8Array(bytes);
            return transact("readwrite", function (store) {
                return store.put(copy, key);
            }).then(function () {
                return "";
            });
        },
        remove: function (key) {
            check_key(key);
            return transact("readwrite", function (store) {
                return store.delete(key);
            }).then(function () {
                return "";
            });
        },
        // Every key starting with `prefix` (text keys only), sorted.
        keys: function (prefix) {
            return transact("readonly", function (store) {
                return store.getAllKeys();
            }).then(function (keys) {
                return keys.filter(function (k) {
                    return typeof k === "string" && k.startsWith(prefix);
                }).sort();
            });
        },
    };


    // The page's files (see the top of this file).
    var FS_ROOT = "/sevenbag-v1/";
    // Another version's files: named as skipped, never read, never deleted.
    var FS_OTHER_VERSION = /^\/sevenbag-v[0-9]+\//;
    var MAX_FS_FILE = 64 * 1024 * 1024;
    var MAX_FS_TOTAL = 256 * 1024 * 1024;
    var MAX_FS_PATH = 512;
    var fs = {
        files: new Map(),
        total: 0,
        ready: 0,
        skipped: [],
        problem: "",
        // Writes to IndexedDB, one after another in the order made.
        chain: Promise.resolve(),
    };
    var channel = null;
    try {
        channel = new BroadcastChannel("sevenbag-files");
    } catch (e) {
        channel = null;
    }

    function fs_set(path, bytes) {
        var old = fs.files.get(path);
        fs.total += bytes.length - (old ? old.length : 0);
        fs.files.set(path, bytes);
    }
    function fs_delete(path) {
        var old = fs.files.get(path);
        if (old) {
            fs.total -= old.length;
            fs.files.delete(path);
        }
        return !!old;
    }
    function fs_persist(body) {
        fs.chain = fs.chain.then(function () {
            return transact("readwrite", body);
        }).catch(function (e) {
            fs.problem = "the page could not keep a file: " + ((e && e.message) || e);
        });
        return fs.chain;
    }
    // The whole store, read once: every path under FS_ROOT into memory; the rest named.
    function fs_load() {
        return open_db().then(function (db) {
            return new Promise(function (resolve, reject) {
                var tx = db.transaction("files", "readonly");
                var cursor = tx.objectStore("files").openCursor();
                cursor.onsuccess = function () {
                    var c = cursor.result;
                    if (!c) {
                        return;
                    }
                    var key = c.key;
                    if (typeof key !== "string") {
                        fs.skipped.push(String(key).slice(0, 80) + ": a key that is not a path");
                    } else if (key.startsWith(FS_ROOT)) {
                        var bytes = to_bytes(c.value);
                        if (bytes === null) {
                            fs.skipped.push(key + ": holds " + typeof c.value + ", not bytes");
                        } else if (bytes.length > MAX_FS_FILE) {
                            fs.skipped.push(key + ": " + bytes.length + " bytes, over the " +
                                MAX_FS_FILE + "-byte limit");
                        } else if (key.length > MAX_FS_PATH) {
                            fs.skipped.push(key.slice(0, 80) + "…: a path over " + MAX_FS_PATH +
                                " characters");
                        } else if (fs.total + bytes.length > MAX_FS_TOTAL) {
                            fs.skipped.push(key + ": over the page's " + MAX_FS_TOTAL +
                                "-byte total");
                        } else {
                            fs_set(key, new Uint8Array(bytes));
                        }
                    } else if (FS_OTHER_VERSION.test(key)) {
                        fs.skipped.push(key + ": kept by another version of the game");
                    }
                    c.continue();
                };
                tx.oncomplete = resolve;
                tx.onerror = tx.onabort = function () {
                    reject(new Error((tx.error && tx.error.message) || "IndexedDB refused"));
                };
            });
        });
    }
    fs_load().then(function () {
        fs.ready = 1;
    }, function (e) {
        fs.ready = -1;
        fs.problem = "the page's files are kept in memory only (" + ((e && e.message) || e) +
            "): they go when the page closes";
    });
    if (channel) {
        // Another tab changed a file: the same change here.
        channel.onmessage = function (e) {
            var m = e.data || {};
            if (typeof m.path !== "string" || !m.path.startsWith(FS_ROOT)) {
                return;
            }
            if (m.kind === "write" && m.bytes instanceof Uint8Array &&
                m.bytes.length <= MAX_FS_FILE) {
                fs_set(m.path, m.bytes);
            } else if (m.kind === "remove") {
                fs_delete(m.path);
            }
        };
    }
    function tell_tabs(message) {
        if (channel) {
            try {
                channel.postMessage(message);
            } catch (e) { /* the other tabs reload it next time */ }
        }
    }

    var files = {
        root: FS_ROOT,
        ready: function () {
            return fs.ready;
        },
        // A promise of true once every write made so far is in IndexedDB (for tests that
        // reload the page right after a write).
        settled: function () {
            return fs.chain.then(function () {
                return true;
            });
        },
        read: function (path) {
            return fs.files.get(path) || null;
        },
        write: function (path, bytes) {
            if (typeof path !== "string" || !path.startsWith(FS_ROOT) ||
                path.length > MAX_FS_PATH || bytes.length > MAX_FS_FILE) {
                return false;
            }
            var old = fs.files.get(path);
            if (fs.total - (old ? old.length : 0) + bytes.length > MAX_FS_TOTAL) {
                return false;
            }
            var copy = new Uint8Array(bytes);
            fs_set(path, copy);
            fs_persist(function (store) {
                return store.put(copy, path);
            });
            tell_tabs({ kind: "write", path: path, bytes: copy });
            return true;
        },
        remove: function (path) {
            if (!fs_delete(path)) {
                return false;
            }
            fs_persist(function (store) {
                return store.delete(path);
            });
            tell_tabs({ kind: "remove", path: path });
            return true;
        },
        rename: function (from, to) {
            var bytes = fs.files.get(from);
            if (!bytes || !files.write(to, bytes)) {
                return false;
            }
            files.remove(from);
            return true;
        },
        list: function (prefix) {
            var out = [];
            fs.files.forEach(function (_, path) {
                if (path.startsWith(prefix)) {
                    out.push(path);
                }
            });
            return out.sort();
        },
        skipped: function () {
            return fs.skipped.slice();
        },
        problem: function () {
            return fs.problem;
        },
        // Resolves once every change so far is in IndexedDB (for tests).
        flushed: function () {
            return fs.chain;
        },
    };

    function persist() {
        if (!navigator.storage || !navigator.storage.persist) {
            return Promise.resolve("0");
        }
        return navigator.storage.persist().then(function (granted) {
            return granted ? "1" : "0";
        });
    }

    window.sevenbag.storage = { local: local, idb: idb, persist: persist, files: files };

    window.sevenbag.parts.push(function (env, io) {
        env.sb_storage_len = function (kptr, klen) {
            var v = local.get(io.str(kptr, klen));
            return v === null ? -1 : io.encoder.encode(v).length;
        };
        env.sb_storage_get = function (kptr, klen, ptr, cap) {
            var v = local.get(io.str(kptr, klen));
            return v === null ? -1 : io.put(io.encoder.encode(v), ptr, cap);
        };
        env.sb_storage_set = function (kptr, klen, vptr, vlen) {
            return local.set(io.str(kptr, klen), io.str(vptr, vlen)) ? 1 : 0;
        };
        env.sb_storage_remove = function (kptr, klen) {
            return local.remove(io.str(kptr, klen)) ? 1 : 0;
        };
        env.sb_storage_keys = function (pptr, plen, ptr, cap) {
            var list = io.encode_list(local.keys(io.str(pptr, plen)));
            return cap === 0 ? list.length : io.put(list, ptr, cap);
        };
        env.sb_storage_persist = function () {
            return io.request(persist);
        };
        env.sb_fs_ready = function () {
            return fs.ready;
        };
        env.sb_fs_read = function (pptr, plen, ptr, cap) {
            var bytes = files.read(io.str(pptr, plen));
            if (bytes === null) {
                return -1;
            }
            return cap === 0 ? bytes.length : io.put(bytes, ptr, cap);
        };
        env.sb_fs_write = function (pptr, plen, ptr, len) {
            return files.write(io.str(pptr, plen), io.bytes(ptr, len)) ? 1 : 0;
        };
        env.sb_fs_remove = function (pptr, plen) {
            return files.remove(io.str(pptr, plen)) ? 1 : 0;
        };
        env.sb_fs_rename = function (fptr, flen, tptr, tlen) {
            return files.rename(io.str(fptr, flen), io.str(tptr, tlen)) ? 1 : 0;
        };
        env.sb_fs_list = function (pptr, plen, ptr, cap) {
            var list = io.encode_list(files.list(io.str(pptr, plen)));
            return cap === 0 ? list.length : io.put(list, ptr, cap);
        };
        env.sb_fs_skipped = function (ptr, cap) {
            var list = io.encode_list(fs.skipped);
            return cap === 0 ? list.length : io.put(list, ptr, cap);
        };
        env.sb_fs_problem = function (ptr, cap) {
            var text = io.encoder.encode(fs.problem);
            if (cap === 0) {
                return text.length;
            }
            var n = io.put(text, ptr, cap);
            fs.problem = "";
            return n;
        };
        env.sb_idb_get = function (kptr, klen, max) {
            var key = io.str(kptr, klen);
            return io.request(function () {
                return idb.get(key, max);
            });
        };
        env.sb_idb_put = function (kptr, klen, vptr, vlen) {
            var key = io.str(kptr, klen);
            var value = io.bytes(vptr, vlen).slice();
            return io.request(function () {
                return idb.put(key, value);
            });
        };
        env.sb_idb_delete = function (kptr, klen) {
            var key = io.str(kptr, klen);
            return io.request(function () {
                return idb.remove(key);
            });
        };
        env.sb_idb_keys = function (pptr, plen) {
            var prefix = io.str(pptr, plen);
            return io.request(function () {
                return idb.keys(prefix).then(io.encode_list);
            });
        };
    });
})();
