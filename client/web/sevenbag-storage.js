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

    function persist() {
        if (!navigator.storage || !navigator.storage.persist) {
            return Promise.resolve("0");
        }
        return navigator.storage.persist().then(function (granted) {
            return granted ? "1" : "0";
        });
    }

    window.sevenbag.storage = { local: local, idb: idb, persist: persist };

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
