// Drives the system Chromium for tests/tests/browser.rs, one JSON command per stdin line, one
// JSON answer per stdout line (the Rust test decides what to wait for and when):
//   {"cmd":"goto","url":U}          -> {"ok":true}            (returns once the page committed)
//   {"cmd":"screenshot","path":P}   -> {"ok":true}            (PNG of the viewport)
//   {"cmd":"eval","expr":E}         -> {"ok":true,"value":V}  (page.evaluate of an expression)
//   {"cmd":"console"}               -> {"ok":true,"value":[{"type":T,"text":X}, ...]}
//   {"cmd":"keys","keys":[K...],"hold":MS} -> {"ok":true}  (focuses the game's canvas, then
//                                      presses each key, held MS ms: playwright key names)
//   {"cmd":"type","text":T}         -> {"ok":true}            (types T into the canvas)
//   {"cmd":"freeze","frozen":B}     -> {"ok":true}            (CDP Page.setWebLifecycleState:
//                                      a frozen page runs no script, no requestAnimationFrame
//                                      and handles no socket event, as a tab in the background
//                                      at its worst; false thaws it)
//   {"cmd":"device","profile":P}    -> {"ok":true}  (starts the browser again on the same profile
//                                      as "phone": 390x844 CSS px, device scale 3, mobile
//                                      viewport, touch; or "desktop": 1280x720)
//   {"cmd":"tap","x":X,"y":Y}       -> {"ok":true}            (a touch tap at CSS px; phone only)
//   {"cmd":"touch","kind":K,"points":[{"x":X,"y":Y,"id":N}...]} -> {"ok":true}  (one raw
//                                      touch event through CDP Input.dispatchTouchEvent: K is
//                                      start, move, end or cancel; points are the touches held
//                                      after it, so several fingers can be down at once)
//   {"cmd":"throttle","rate":R}     -> {"ok":true}  (CDP Emulation.setCPUThrottlingRate: R
//                                      times slower; 1 is off)
//   {"cmd":"reload"}                -> {"ok":true}            (returns once the page committed)
//   {"cmd":"profile","ms":MS}       -> {"ok":true,"value":{"ms":T,"functions":[[NAME,SELF_MS,
//                                      TOTAL_MS]...]}}  (CDP Profiler: the page's script
//                                      sampled every 100 µs for MS ms; the 40 functions with the
//                                      most self time, with the time spent in them and below)
//   {"cmd":"type_focused","text":T} -> {"ok":true}  (types T into whatever has the focus)
//   {"cmd":"press_focused","key":K} -> {"ok":true}  (presses K in whatever has the focus)
//   {"cmd":"downloads"}             -> {"ok":true,"value":[{"name":N,"path":P,"bytes":B}...]}
//                                      (every download so far, saved under the profile)
//   {"cmd":"choose_files","paths":[P...]} -> {"ok":true}  (the page's next file picker gets
//                                      these files instead of showing a dialog)
//   {"cmd":"grant","permissions":[...]} -> {"ok":true}  (e.g. clipboard-read, clipboard-write)
//   {"cmd":"close"}                 -> {"ok":true}, then exit
// The first line written is {"ok":true,"ready":true} once the browser runs. Errors answer
// {"ok":false,"error":...}. End of stdin (the test went away) closes the browser and exits.
//
// Environment: SEVENBAG_CHROMIUM (the browser binary), SEVENBAG_USER_DATA_DIR (a fresh temp
// dir), SEVENBAG_CHROMIUM_ARGS (JSON array of flags). playwright-core is found through
// NODE_PATH (tests/browser/install puts it in target/browser-node/node_modules).
'use strict';

const readline = require('readline');
const { chromium } = require('playwright-core');

const messages = [];

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// The context options of each device profile (FACTS: a phone as playwright's device list has
// it, without a user agent of its own).
const PROFILES = {
  desktop: { viewport: { width: 1280, height: 720 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
};

async function main() {
  const args = JSON.parse(process.env.SEVENBAG_CHROMIUM_ARGS || '[]');
  const downloads = [];
  let chooser = null;
  let context = null;
  let page = null;
  let cdp = null;

  async function open(profile) {
    const options = PROFILES[profile];
    if (!options) throw new Error(`unknown device profile ${profile}`);
    context = await chromium.launchPersistentContext(process.env.SEVENBAG_USER_DATA_DIR, {
      executablePath: process.env.SEVENBAG_CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args,
      acceptDownloads: true,
      downloadsPath: process.env.SEVENBAG_USER_DATA_DIR,
      timeout: 60000,
      ...options,
    });
    page = context.pages()[0] || (await context.newPage());
    cdp = null;
    watch(page);
  }

  function watch(page) {
    page.on('console', (m) => {
      const where = m.location() && m.location().url;
      messages.push({ type: m.type(), text: where ? `${m.text()} (${where})` : m.text() });
    });
    page.on('pageerror', (e) => messages.push({ type: 'pageerror', text: String(e && e.stack || e) }));
    page.on('requestfailed', (r) =>
      messages.push({ type: 'requestfailed', text: `${r.url()}: ${r.failure() && r.failure().errorText}` }));
    page.on('response', (r) => {
      if (r.status() >= 400) messages.push({ type: 'http', text: `${r.status()} ${r.url()}` });
    });
    page.on('download', async (d) => {
      const name = d.suggestedFilename();
      const path = require('path').join(process.env.SEVENBAG_USER_DATA_DIR,
        `download-${downloads.length + 1}-${name.replace(/[^A-Za-z0-9._-]/g, '_')}`);
      try {
        await d.saveAs(path);
        downloads.push({ name, path, bytes: require('fs').statSync(path).size });
      } catch (e) {
        downloads.push({ name, path: null, error: String(e && e.message || e) });
      }
    });
    page.on('filechooser', async (fc) => {
      if (!chooser) {
        messages.push({ type: 'warning', text: 'a file picker opened with no files chosen for it' });
        return;
      }
      const paths = chooser;
      chooser = null;
      try { await fc.setFiles(paths); } catch (e) { messages.push({ type: 'error', text: `setFiles: ${e}` }); }
    });
  }

  async function session() {
    if (!cdp) cdp = await context.newCDPSession(page);
    return cdp;
  }

  await open('desktop');

  let closing = false;
  async function close() {
    if (closing) return;
    closing = true;
    try { await context.close(); } catch (_) { /* already gone */ }
  }

  const handlers = {
    async goto(c) { await page.goto(c.url, { waitUntil: 'commit', timeout: 30000 }); },
    async screenshot(c) { await page.screenshot({ path: c.path, timeout: 30000 }); },
    async eval(c) { return await page.evaluate(c.expr); },
    async console() { return messages.slice(); },
    async keys(c) {
      await page.focus('#glcanvas');
      for (const k of c.keys) await page.keyboard.press(k, { delay: c.hold || 40 });
    },
    async freeze(c) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.setWebLifecycleState', { state: c.frozen ? 'frozen' : 'active' });
      await cdp.detach();
    },
    async device(c) {
      await context.close();
      await open(c.profile);
    },
    async tap(c) { await page.touchscreen.tap(c.x, c.y); },
    async touch(c) {
      const types = { start: 'touchStart', move: 'touchMove', end: 'touchEnd', cancel: 'touchCancel' };
      const type = types[c.kind];
      if (!type) throw new Error(`unknown touch kind ${c.kind}`);
      const touchPoints = (c.points || []).map((p) => ({ x: p.x, y: p.y, id: p.id, radiusX: 4, radiusY: 4, force: 1 }));
      await (await session()).send('Input.dispatchTouchEvent', { type, touchPoints });
    },
    async throttle(c) {
      await (await session()).send('Emulation.setCPUThrottlingRate', { rate: c.rate });
    },
    async reload() { await page.reload({ waitUntil: 'commit', timeout: 30000 }); },
    async profile(c) {
      const cdp = await session();
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      await new Promise((r) => setTimeout(r, c.ms));
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.send('Profiler.disable');
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const ms = (profile.endTime - profile.startTime) / 1000;
      const perSample = ms / Math.max(profile.samples.length, 1);
      const self = new Map();
      const total = new Map();
      const name = (n) => n.callFrame.functionName || `(anonymous ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber})`;
      // Each function's time below it counts once per node even when it recurses.
      const visit = (n, open) => {
        const f = name(n);
        const hits = (n.hitCount || 0) * perSample;
        self.set(f, (self.get(f) || 0) + hits);
        let sum = hits;
        const inner = new Set(open);
        inner.add(f);
        for (const id of n.children || []) sum += visit(byId.get(id), inner);
        if (!open.has(f)) total.set(f, (total.get(f) || 0) + sum);
        return sum;
      };
      visit(byId.get(profile.nodes[0].id), new Set());
      const functions = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)
        .map(([f, t]) => [f, +t.toFixed(2), +(total.get(f) || 0).toFixed(2)]);
      return { ms, functions };
    },
    async type_focused(c) { await page.keyboard.type(c.text, { delay: 40 }); },
    async press_focused(c) { await page.keyboard.press(c.key, { delay: 40 }); },
    async downloads() { return downloads.slice(); },
    async choose_files(c) { chooser = c.paths; },
    async grant(c) { await context.grantPermissions(c.permissions); },
    async type(c) {
      await page.focus('#glcanvas');
      await page.keyboard.type(c.text, { delay: 40 });
    },
  };

  answer({ ok: true, ready: true });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    let c;
    try { c = JSON.parse(line); } catch (e) { answer({ ok: false, error: `bad command: ${e}` }); continue; }
    if (c.cmd === 'close') { await close(); answer({ ok: true }); break; }
    const handler = handlers[c.cmd];
    if (!handler) { answer({ ok: false, error: `unknown command ${c.cmd}` }); continue; }
    try {
      const value = await handler(c);
      answer({ ok: true, value: value === undefined ? null : value });
    } catch (e) {
      answer({ ok: false, error: String(e && e.message || e) });
    }
  }
  await close();
  process.exit(0);
}

main().catch((e) => {
  answer({ ok: false, error: String(e && e.stack || e) });
  process.exit(1);
});
