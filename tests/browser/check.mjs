// Opens one page of each kind of a diskdash site in headless Chromium and
// checks what a reader's browser would show:
//   - no page scrolls sideways (document scroll width <= viewport), and
//     every image of a page checked in full loads;
//   - at 1280 and 390 px no request goes anywhere but the site itself;
//   - no console error and no uncaught page error;
//   - at 390 px every chart's smallest rendered text is at least 9 px;
//   - on pages checked in full, every chart's text lies inside the chart's
//     box (inline and through <img>), and every point label marked
//     data-label-for="i" starts within 40 viewBox units of its point
//     (data-point="i");
//   - axe-core finds no accessibility violation of serious or critical
//     impact (pages checked in full, at both widths in both schemes).
// One page of each kind (index, value, the largest test, offering, run and
// study page) gets every check at both widths, in light and dark colour
// schemes, its lazy images scrolled into view and SVGs shown through <img>
// opened at the width they are shown. Every other page is opened once, at
// 390 px in light, and checked for sideways scroll, console errors, requests
// and inline chart text as it loads. At 1280 px in dark, pages checked in
// full are also laid out for print: navigation hidden, each chart's section
// kept on one page, black on white. --all gives every page the full checks;
// --page (repeatable) names the pages to check in full instead. --measure
// prints, for every page checked in full, a line
// "measured REL @WIDTH SCHEME: height H px, first chart Y px" (the first
// figure.chart, else the image of the first <picture>; Y is "none" without
// either) for the caller to hold to its own limits.
//
// --widths W,W... checks at these viewport widths instead of 1280 and 390
// (a width of 390 or less gets the narrow checks). --skip-axe-rule ID
// (repeatable) leaves one axe-core rule out, for pages styled by others.
//
//   node check.mjs SITE_DIR [--all | --page REL...] [--measure] [--widths W,...] [--skip-axe-rule ID...] [--screenshots DIR]
//
// Prints one line per failure and then "N passed, M failed", counting a page
// at one width in one scheme as one; exits 1 on any failure, 2 on a usage or
// setup error. --screenshots writes a full-page PNG per full check.
// CHROMIUM (or the first of /usr/bin/chromium, chromium-browser) is the
// browser; nothing is downloaded.

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// injected into each page checked in full; it reads the page, sends nothing
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const AXE_IMPACTS = ["serious", "critical"];

const WIDTHS = [1280, 390];
const NARROW = 390;
const SCHEMES = ["light", "dark"];
const MIN_TEXT_PX = 9;
// a chart's text may reach this far (px) past its box: antialiasing, not clipping
const TEXT_BOX_TOLERANCE_PX = 1;
// a point label starts within this many viewBox units of its point
const LABEL_REACH = 40;
// a page that takes longer is a failure, not a hang
const PAGE_TIMEOUT_S = 60;

function usage(msg) {
  if (msg) console.error(`check: ${msg}`);
  console.error("usage: node check.mjs SITE_DIR [--all | --page REL...] [--measure] [--widths W,...] [--skip-axe-rule ID...] [--screenshots DIR]");
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { site: null, all: false, measure: false, widths: WIDTHS, skipAxe: [], screenshots: null, pages: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--all") opts.all = true;
    else if (a === "--measure") opts.measure = true;
    else if (a === "--skip-axe-rule") {
      opts.skipAxe.push(argv[++i]);
      if (!opts.skipAxe.at(-1)) usage("--skip-axe-rule needs a rule id, e.g. color-contrast");
    }
    else if (a === "--widths") {
      opts.widths = (argv[++i] || "").split(",").map(Number);
      if (!opts.widths.every((w) => Number.isInteger(w) && w > 0)) usage("--widths needs widths in px, e.g. 740,390");
    }
    else if (a === "--page") {
      opts.pages.push(argv[++i]);
      if (!opts.pages.at(-1)) usage("--page needs a page, e.g. tests/s/t.html");
    }
    else if (a === "--screenshots") {
      opts.screenshots = argv[++i];
      if (!opts.screenshots) usage("--screenshots needs a directory");
    } else if (a.startsWith("-")) usage(`unknown option ${a}`);
    else if (opts.site) usage(`one site directory, not ${opts.site} and ${a}`);
    else opts.site = a;
  }
  if (!opts.site) usage("no site directory given");
  if (!fs.existsSync(path.join(opts.site, "index.html")))
    usage(`\`${opts.site}\` has no index.html (build one with \`diskdash report\`)`);
  for (const p of opts.pages)
    if (!fs.existsSync(path.join(opts.site, p))) usage(`\`${opts.site}\` has no ${p}`);
  return opts;
}

/** Every .html file under root, as sorted paths relative to it with "/". */
function htmlFiles(root, rel = "") {
  const out = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...htmlFiles(root, p));
    else if (e.name.endsWith(".html")) out.push(p);
  }
  return out.sort();
}

/** The pages to open: every page, or per kind the largest (the one with the
 * most rows and charts, so the likeliest to overflow), ties by name. */
function choosePages(root, all) {
  const files = htmlFiles(root);
  if (all) return files;
  const kinds = [
    (f) => f === "index.html",
    (f) => f === "value.html",
    (f) => f.startsWith("tests/"),
    (f) => f.startsWith("offerings/"),
    (f) => f.startsWith("runs/"),
    (f) => f.startsWith("studies/"),
  ];
  const size = (f) => fs.statSync(path.join(root, f)).size;
  const pages = [];
  for (const kind of kinds) {
    const of = files.filter(kind);
    if (of.length === 0) continue;
    of.sort((a, b) => size(b) - size(a) || (a < b ? -1 : 1));
    pages.push(of[0]);
  }
  return pages;
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".csv": "text/csv; charset=utf-8",
  ".json": "application/json",
  ".md": "text/markdown; charset=utf-8",
  ".png": "image/png",
};

/** Serves root on 127.0.0.1 at a free port; GET and HEAD only, no listings. */
function serve(root) {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const file = path.join(base, decodeURIComponent(url.pathname));
    if (!file.startsWith(base + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    res.end(req.method === "HEAD" ? undefined : fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function findChromium() {
  const candidates = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  console.error("check: no Chromium found (install Debian's `chromium`, or set CHROMIUM)");
  process.exit(2);
}

// Runs in the page: what sticks out past the right edge of the viewport.
// Elements inside a box that clips or scrolls horizontally do not widen the
// document, so they are skipped; of the rest, the outermost ones are named.
function overflowInPage() {
  const vw = window.innerWidth;
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += `#${el.id}`;
    for (const c of el.classList) s += `.${c}`;
    return s;
  };
  const trail = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement)
      parts.unshift(name(e));
    return parts.join(" > ");
  };
  const clips = (el) => getComputedStyle(el).overflowX !== "visible";
  const sticking = [];
  const walk = (el, parentSticks) => {
    const r = el.getBoundingClientRect();
    const sticks = r.width > 0 && r.right > vw + 0.5;
    if (sticks && !parentSticks) sticking.push(`${trail(el)} (right edge ${Math.round(r.right)} px)`);
    if (clips(el) && el !== document.documentElement && el !== document.body) return;
    for (const c of el.children) walk(c, parentSticks || sticks);
  };
  for (const c of document.body.children) walk(c, false);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: vw,
    sticking: sticking.slice(0, 3),
  };
}

// Runs in the page: for every outermost <svg>, its name and smallest rendered
// text (font size times the scale its transform matrix applies), and every
// <img> showing an SVG with its rendered width. `scale` corrects for a
// standalone SVG opened at another width than the <img> that shows it.
function chartsInPage(scale) {
  const label = (svg) =>
    (svg.querySelector("title")?.textContent || svg.getAttribute("aria-label") || "untitled svg").trim();
  const smallest = (svg) => {
    let min = null;
    for (const t of svg.querySelectorAll("text, tspan")) {
      // a <text> whose characters all sit in child <tspan>s is measured there
      const own = [...t.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const style = getComputedStyle(t);
      if (style.display === "none" || style.visibility === "hidden") continue;
      const m = t.getScreenCTM();
      if (!m) continue;
      const px = parseFloat(style.fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)) * scale;
      if (min === null || px < min.px) min = { px, text: t.textContent.trim().slice(0, 40) };
    }
    return min;
  };
  const svgs = [...document.querySelectorAll("svg")].filter((s) => !s.parentElement?.closest("svg"));
  const inline = svgs.map((s) => ({ name: label(s), smallest: smallest(s) }));
  const imgs = [...document.querySelectorAll("img")]
    .filter((i) => /\.svg($|[?#])/i.test(i.getAttribute("src") || ""))
    .map((i) => ({ src: i.currentSrc || i.src, alt: i.alt, width: i.getBoundingClientRect().width }));
  return { inline, imgs };
}

// Runs in the page (or a standalone SVG): for every outermost <svg> shown,
// each <text> whose box sticks out of the chart's rendered box by more than
// `tolerance` px, and each point label (data-label-for="i") farther than
// `reach` viewBox units from its point (data-point="i"). Every finding names
// the chart by its title.
function textBoxesInPage([tolerance, reach]) {
  const label = (svg) =>
    (svg.querySelector("title")?.textContent || svg.getAttribute("aria-label") || "untitled svg").trim();
  const found = [];
  const svgs = [...document.querySelectorAll("svg")].filter((s) => !s.parentElement?.closest("svg"));
  for (const svg of svgs) {
    const box = svg.getBoundingClientRect();
    if (box.width === 0 || getComputedStyle(svg).display === "none") continue;
    const vb = svg.viewBox?.baseVal;
    const scale = vb && vb.width > 0 ? box.width / vb.width : 1;
    const name = label(svg);
    for (const t of svg.querySelectorAll("text")) {
      const r = t.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const out = [
        ["left", box.left - r.left],
        ["right", r.right - box.right],
        ["top", box.top - r.top],
        ["bottom", r.bottom - box.bottom],
      ].filter(([, by]) => by > tolerance);
      if (out.length)
        found.push(
          `chart "${name}": text "${t.textContent.trim().slice(0, 60)}" outside the chart (${out
            .map(([side, by]) => `${side} by ${by.toFixed(1)} px`)
            .join(", ")})`,
        );
    }
    for (const t of svg.querySelectorAll("text[data-label-for]")) {
      const dot = svg.querySelector(`[data-point="${t.getAttribute("data-label-for")}"]`);
      if (!dot) {
        found.push(`chart "${name}": label "${t.textContent.trim()}" has no point`);
        continue;
      }
      const d = dot.getBoundingClientRect();
      const [cx, cy] = [d.left + d.width / 2, d.top + d.height / 2];
      const r = t.getBoundingClientRect();
      const dx = Math.max(r.left - cx, 0, cx - r.right);
      const dy = Math.max(r.top - cy, 0, cy - r.bottom);
      const units = Math.hypot(dx, dy) / scale;
      if (units > reach)
        found.push(`chart "${name}": label "${t.textContent.trim()}" ${units.toFixed(0)} units from its point (> ${reach})`);
    }
  }
  return found;
}

// Runs in the page under print media: what the print style sheet gets wrong.
function printInPage() {
  const wrong = [];
  const shown = [...document.querySelectorAll("nav")].filter((n) => getComputedStyle(n).display !== "none");
  if (shown.length) wrong.push(`${shown.length} navigation bar(s) still shown`);
  for (const f of document.querySelectorAll("figure.chart")) {
    const box = f.closest("section") || f;
    if (getComputedStyle(box).breakInside !== "avoid")
      wrong.push(`chart "${f.querySelector("title")?.textContent || f.querySelector("img")?.getAttribute("src") || "?"}" may be split from its table`);
  }
  // a transparent page prints on white paper
  const paint = [document.body, document.documentElement].map((e) => getComputedStyle(e).backgroundColor);
  const bg = paint.find((c) => c !== "rgba(0, 0, 0, 0)" && c !== "transparent") || "rgb(255, 255, 255)";
  const fg = getComputedStyle(document.body).color;
  if (bg !== "rgb(255, 255, 255)" || fg !== "rgb(0, 0, 0)") wrong.push(`text is ${fg} on ${bg}, not black on white`);
  return wrong.slice(0, 3);
}

// Runs in the page (after axe-core is injected): the violations of serious or
// critical impact, each with up to three of the elements it was found on.
async function axeInPage([impacts, skip]) {
  const rules = Object.fromEntries(skip.map((id) => [id, { enabled: false }]));
  const result = await window.axe.run(document, { resultTypes: ["violations"], rules });
  return result.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
}

// Runs in the page: its height and where its first chart starts.
function heightInPage() {
  // a site's page draws charts in figures; a post pasted as Markdown, in
  // <picture>s
  const chart = document.querySelector("figure.chart") || document.querySelector("picture img");
  return {
    height: document.documentElement.scrollHeight,
    chart: chart ? Math.round(chart.getBoundingClientRect().top + window.scrollY) : null,
  };
}

/** Loads every lazy image by scrolling the page through, then waits for quiet. */
async function settle(page) {
  await page.evaluate(async () => {
    const step = Math.max(200, window.innerHeight);
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 20));
    }
    window.scrollTo(0, 0);
    // an image scrolled past too quickly may not have started loading yet
    const pending = [...document.images].filter((i) => !i.complete);
    const loaded = pending.map(
      (i) =>
        new Promise((r) => {
          i.addEventListener("load", r, { once: true });
          i.addEventListener("error", r, { once: true });
          i.loading = "eager";
        }),
    );
    await Promise.all(loaded);
  });
  await page.waitForLoadState("networkidle");
}

const px = (v) => {
  const s = v.toFixed(1);
  return s === MIN_TEXT_PX.toFixed(1) && v < MIN_TEXT_PX ? v.toFixed(3) : s;
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const site = path.resolve(opts.site);
  const pages = opts.pages.length ? opts.pages : choosePages(site, opts.all);
  const others = htmlFiles(site).filter((p) => !pages.includes(p));
  const server = await serve(site);
  const origin = `http://127.0.0.1:${server.address().port}`;
  if (opts.screenshots) fs.mkdirSync(opts.screenshots, { recursive: true });

  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    // playwright gives each launch a fresh temporary profile; these keep
    // Chromium from calling home, which would show up as foreign requests
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });

  let passed = 0;
  let failed = 0;
  try {
    for (const scheme of SCHEMES) {
      for (const width of opts.widths) {
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: scheme,
          deviceScaleFactor: 1,
        });
        // every request is recorded; one for another origin is refused, so
        // nothing leaves the machine even when the check fails
        let foreign = [];
        await context.route("**/*", (route) => {
          const url = route.request().url();
          if (url.startsWith(origin + "/") || url.startsWith("data:")) return route.continue();
          foreign.push(url);
          return route.abort("blockedbyclient");
        });
        const page = await context.newPage();
        const svgPage = await context.newPage();
        let errors = [];
        const onConsole = (m) => {
          // the refused foreign requests are reported once, as requests
          if (m.type() !== "error" || /ERR_BLOCKED_BY_CLIENT/.test(m.text())) return;
          const at = m.location().url.replace(origin + "/", "");
          errors.push(`console error: ${m.text()}${at ? ` (${at})` : ""}`);
        };
        const onPageError = (e) => errors.push(`page error: ${e.message}`);
        for (const p of [page, svgPage]) {
          p.on("console", onConsole);
          p.on("pageerror", onPageError);
        }
        for (const p of [page, svgPage])
          p.on("response", (r) => {
            if (r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url().replace(origin + "/", "")}`);
          });

        // every other page gets the cheap checks once, at 390 px in light
        const rest = width <= NARROW && scheme === SCHEMES[0] ? others : [];
        for (const [rel, full] of [...pages.map((p) => [p, true]), ...rest.map((p) => [p, false])]) {
          foreign = [];
          errors = [];
          const problems = [];
          const where = `${rel} @${width} ${scheme}`;
          let timer;
          const timeout = new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${PAGE_TIMEOUT_S} s`)), PAGE_TIMEOUT_S * 1000);
          });
          const run = async () => {
            // the <svg> page opened last would leave this one in the background
            await page.bringToFront();
            await page.goto(`${origin}/${rel}`, { waitUntil: "load" });
            if (full) await settle(page);

            const o = await page.evaluate(overflowInPage);
            if (o.scrollWidth > o.innerWidth) {
              const what = o.sticking.length ? `: ${o.sticking.join("; ")}` : "";
              problems.push(`scrolls sideways: scroll width ${o.scrollWidth} px > viewport ${o.innerWidth} px${what}`);
            }
            if (full) {
              const broken = await page.evaluate(() =>
                [...document.images].filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.getAttribute("src")),
              );
              for (const src of broken.slice(0, 3)) problems.push(`image did not load: ${src}`);
            }
            if (full) {
              const boxes = [TEXT_BOX_TOLERANCE_PX, LABEL_REACH];
              const found = await page.evaluate(textBoxesInPage, boxes);
              const imgs = await page.evaluate(() =>
                [...document.querySelectorAll("img")]
                  .filter((i) => /\.svg($|[?#])/i.test(i.getAttribute("src") || ""))
                  .map((i) => ({ src: i.currentSrc || i.src, width: i.getBoundingClientRect().width })),
              );
              for (const img of imgs) {
                if (img.width === 0) continue;
                await svgPage.setViewportSize({ width: Math.max(1, Math.round(img.width)), height: 900 });
                await svgPage.goto(img.src, { waitUntil: "load" });
                found.push(...(await svgPage.evaluate(textBoxesInPage, boxes)));
              }
              for (const f of [...new Set(found)]) problems.push(f);
            }
            if (width <= NARROW) {
              const charts = await page.evaluate(chartsInPage, 1);
              const measured = charts.inline.map((c) => ({ ...c }));
              for (const img of full ? charts.imgs : []) {
                const w = Math.max(1, Math.round(img.width));
                await svgPage.setViewportSize({ width: w, height: 900 });
                await svgPage.goto(img.src, { waitUntil: "load" });
                // the file shown at the <img>'s width: scale by how wide its
                // root came out, in case it does not fill the viewport
                const rootWidth = await svgPage.evaluate(() => document.documentElement.getBoundingClientRect().width);
                const inFile = await svgPage.evaluate(chartsInPage, img.width / (rootWidth || img.width));
                for (const c of inFile.inline) measured.push({ ...c, name: c.name || img.alt });
              }
              for (const c of measured) {
                if (c.smallest && c.smallest.px < MIN_TEXT_PX - 1e-6)
                  problems.push(
                    `chart "${c.name}" smallest text ${px(c.smallest.px)} px (< ${MIN_TEXT_PX}): "${c.smallest.text}"`,
                  );
              }
            }
            if (full) {
              await page.addScriptTag({ content: AXE });
              for (const v of await page.evaluate(axeInPage, [AXE_IMPACTS, opts.skipAxe]))
                problems.push(`accessibility (${v.impact}): ${v.id}: ${v.help}: ${v.nodes} element(s), e.g. ${v.targets.join("; ")}`);
            }
            if (full && opts.measure) {
              const m = await page.evaluate(heightInPage);
              console.log(`measured ${rel} @${width} ${scheme}: height ${m.height} px, first chart ${m.chart === null ? "none" : `${m.chart} px`}`);
            }
            if (full && width > NARROW && scheme === SCHEMES[SCHEMES.length - 1]) {
              // printed from a browser in the dark scheme, the harder case
              await page.emulateMedia({ media: "print" });
              for (const w of await page.evaluate(printInPage)) problems.push(`print: ${w}`);
              await page.emulateMedia({ media: "screen" });
            }
            if (full && opts.screenshots) {
              const shot = path.join(opts.screenshots, `${rel.replace(/\.html$/, "").replace(/\//g, "_")}-${width}-${scheme}.png`);
              await page.screenshot({ path: shot, fullPage: true });
            }
          };
          try {
            await Promise.race([run(), timeout]);
          } catch (e) {
            problems.push(`could not be checked: ${e.message.split("\n")[0]}`);
          } finally {
            clearTimeout(timer);
          }
          for (const url of [...new Set(foreign)]) problems.push(`request leaves the site: ${url}`);
          for (const e of [...new Set(errors)]) problems.push(e);
          if (problems.length === 0) passed++;
          else {
            failed++;
            for (const p of problems) console.log(`${where}: ${p}`);
          }
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`check: ${e.stack || e}`);
  process.exit(2);
});
