/**
 * The report's only stylesheet, inlined so `report.html` is one file that works offline and under a CSP
 * of `default-src 'none'` (no fonts, images or scripts to fetch). System font stacks only.
 */
export const REPORT_CSS = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5d636d; --rule: #d9dce1; --accent: #1f5fbf;
  --bg: #fdfdfc; --quote: #f3f4f6; --warn: #a4461b; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e3; --muted: #a2a7b0; --rule: #3a3e45; --accent: #8ab4f8; --bg: #17181b; --quote: #22242a; --warn: #f0a070; }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; padding: 2.5rem 1.25rem 4rem; font: 1.0625rem/1.65 Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, serif; }
main { max-width: 44rem; margin: 0 auto; }
h1, h2, h3, .meta, .metrics, .sources, .evidence dt, a.cite { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 1.9rem; line-height: 1.25; margin: 0 0 .5rem; letter-spacing: -.01em; }
h2 { font-size: 1.3rem; line-height: 1.3; margin: 2.25rem 0 .75rem; padding-bottom: .25rem; border-bottom: 1px solid var(--rule); }
p { margin: 0 0 1rem; }
.meta { color: var(--muted); font-size: .875rem; margin: 0 0 2rem; }
.meta span + span::before { content: " · "; }
.meta code { font-size: .85em; }
code.term { font-weight: 600; font-size: .92em; }
a { color: var(--accent); }
a.cite { font-size: .72em; vertical-align: super; line-height: 0; text-decoration: none; margin-left: .1em; white-space: nowrap; }
a.cite:hover, a.cite:focus { text-decoration: underline; }
.section.framing p { font-style: italic; }
.section.contradictions { border-left: 3px solid var(--warn); padding-left: 1rem; }
.section.contradictions h2 { border-bottom-color: transparent; }
.section.method { color: var(--muted); font-size: .95rem; }
.sources { font-size: .9rem; padding-left: 2.25rem; }
.sources li { margin: 0 0 .6rem; break-inside: avoid; }
.sources li:target { background: var(--quote); outline: 2px solid var(--accent); outline-offset: 2px; }
.sources .url { display: block; color: var(--muted); font-size: .8rem; overflow-wrap: anywhere; }
.sources .details { color: var(--muted); }
.evidence { margin: 0; }
.evidence dt { font-size: .85rem; color: var(--muted); margin-top: 1rem; }
.evidence dd { margin: .25rem 0 0; }
.evidence blockquote { margin: 0; padding: .5rem .9rem; background: var(--quote); border-left: 3px solid var(--rule); white-space: pre-line; font-size: .95rem; }
pre.code { margin: .4rem 0 1rem; padding: .6rem .9rem; background: var(--quote); border-left: 3px solid var(--rule); overflow-x: auto; font-size: .9rem; }
footer.metrics { margin-top: 3rem; padding-top: .75rem; border-top: 1px solid var(--rule); color: var(--muted); font-size: .8rem; }
@media (max-width: 600px) { body { padding: 1.5rem 1rem 3rem; } h1 { font-size: 1.5rem; } }
@media print {
  :root { --fg: #000; --muted: #444; --rule: #bbb; --accent: #000; --bg: #fff; --quote: #f2f2f2; }
  body { padding: 0; font-size: 11pt; }
  main { max-width: none; }
  a { text-decoration: none; }
  h2 { break-after: avoid; }
  p, blockquote { orphans: 3; widows: 3; }
  .evidence div { break-inside: avoid; }
}
`;
