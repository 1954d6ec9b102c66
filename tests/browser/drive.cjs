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

async function main() {
  const args = JSON.parse(process.env.SEVENBAG_CHROMIUM_ARGS || '[]');
  const context = await chromium.launchPersistentContext(process.env.SEVENBAG_USER_DATA_DIR, {
    executablePath: process.env.SEVENBAG_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
    viewport: { width: 1280, height: 720 },
    timeout: 60000,
  });
  const page = context.pages()[0] || (await context.newPage());
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
