// Renders a Markdown file as GitHub-flavoured Markdown (marked, with its
// GFM tables and autolinks) and prints the HTML, as a blog engine that
// takes Markdown would show a pasted post:
//   node gfm.mjs POST.md > body.html
// Raw HTML in the post (its <picture>s) passes through, as GitHub's does.

import fs from "node:fs";
import { marked } from "marked";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("usage: node gfm.mjs POST.md");
  process.exit(2);
}
process.stdout.write(marked.parse(fs.readFileSync(file, "utf8"), { gfm: true, async: false }));
