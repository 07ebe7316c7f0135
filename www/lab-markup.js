// The lab's markup, shared by the page (index.html), the lessons and every <lease-lab> element: its
// parts, each a piece of markup with its ids, and the two ways labMarkup arranges them — the page's
// (settings, verdict and diagram in one view) and the compact one for docs columns. Words come from
// the dictionary (data-i18n: text, data-i18n-label: aria-label), filled in by view.js's renderStatic;
// `data-feature` names the `controls` token that shows a part (a list: shown if any of them is on).
// Ids are per root: the page's document, or each element's shadow root.

/** What "expected" means: with the safety margin (on the page under it, in the element in its disclosure). */
const EXPECTED = '  <p id="verdict-expected" class="fine"></p>\n';

/** The markup; `langPicker` adds a language field to the settings (the page has one in its header).
 * `compact` (every <lease-lab>: docs columns) puts the verdict and the diagram first and the safety
 * margin, transcript, share and events behind disclosures; the page keeps its full layout. */
export function labMarkup({ langPicker = false, compact = false } = {}) {
  const p = markupParts(langPicker);
  if (compact) {
    return `${p.notice}<div class="grid" id="grid">
${p.settings(p.more)}  <section class="verdict-wrap" aria-labelledby="h-verdict">
    <h2 id="h-verdict" class="sr-only" data-i18n="verdict"></h2>
${p.verdict}  </section>
</div>
<section class="timeline" aria-labelledby="h-timeline">
${p.heading}${p.chart}${p.player}${p.now}${p.compare}</section>
<div class="more">
  <details class="margin">
    <summary id="h-margin" data-i18n="marginShort"></summary>
    <ul id="margin" aria-labelledby="h-margin"></ul>
  ${EXPECTED}  </details>
${p.transcript.replace('"transcript"></summary>', '"transcriptShort"></summary>')}  <details class="share-box" data-feature="share">
    <summary data-i18n="shareTitle"></summary>
    <div class="share">
${p.share}    </div>
  </details>
${p.events.replace('"events"></summary>', '"eventsShort"></summary>').replace('</details>', `${p.fine}</details>`)}  <details class="source-box" id="source-box" hidden>
    <summary data-i18n="sourceShort"></summary>
    <slot name="source"></slot>
  </details>
</div>
${p.search}${p.info}${p.live}`;
  }
  // The page: the settings, the verdict and the diagram in one view (style.css, "first screen"); the
  // comparison under the diagram's column, not in it (that column is the screen's height, and a
  // disclosure in it took the room of a lane; .tl-room is the grid's cell the column sticks in, so that
  // it never passes over the comparison in the next row); the scenario's other settings after them, then why (the
  // safety margin), the transcript and sharing.
  return `${p.notice}<div class="grid first" id="grid">
${p.settings('')}  <section class="verdict-wrap" aria-labelledby="h-verdict">
    <h2 id="h-verdict" class="sr-only" data-i18n="verdict"></h2>
${p.verdict}  </section>
  <div class="tl-room"><section class="timeline" aria-labelledby="h-timeline">
${p.heading}${p.chart}${p.player}${p.now}  </section></div>
${p.compare}  <div class="controls more-set" data-feature="params retries reset">${p.more}</div>
</div>
<div class="grid lower after">
  <section class="margin" aria-labelledby="h-margin">
    <h2 id="h-margin" data-i18n="marginTitle"></h2>
    <ul id="margin" aria-labelledby="h-margin"></ul>
${EXPECTED}${p.transcript}  </section>
  <div><div class="share" data-feature="share">
${p.share}</div>
${p.fine}</div>
</div>
${p.search}${p.info}${p.events}${p.live}`;
}

/** The scenario's other settings: with the rest in an element, after the diagram on the page. */
const MORE_SETTINGS = `    <fieldset id="extra" class="extra" hidden>
      <legend data-i18n="extraLegend"></legend>
      <div id="extra-list"></div>
    </fieldset>
    <label class="check" data-feature="retries"><input type="checkbox" id="retries"> <span data-i18n="retriesLabel"></span></label>
    <div data-feature="params"><div class="field" id="naive-box" hidden>
      <label class="check"><input type="checkbox" id="naive" aria-describedby="naive-note"> <span></span></label>
      <p class="note" id="naive-note"></p>
    </div></div>
    <button type="button" id="reset" data-i18n="reset" data-feature="reset"></button>
`;

/** The lab's parts, each a piece of markup with its ids, for labMarkup to arrange. */
function markupParts(langPicker) {
  const slider = (id) =>
    `<div class="field" data-feature="sliders"><label for="${id}" id="${id}-label"></label>` +
    `<div class="slider"><input type="range" id="${id}" step="1" aria-describedby="${id}-note"><output id="${id}-out" for="${id}"></output></div>` +
    `<p id="${id}-note" class="note" hidden></p></div>`;
  return {
    notice: `<div id="notice" class="notice" role="status" hidden>
  <p><strong id="notice-title"></strong></p>
  <ul id="notice-list"></ul>
  <button type="button" id="notice-close" data-i18n="dismiss"></button>
</div>
`,
    settings: (more) => `  <section class="controls" aria-labelledby="h-settings" data-feature="scenario sliders ${more ? 'params fencing retries reset' : 'fencing'} lang">
    <h2 id="h-settings" class="sr-only" data-i18n="settings"></h2>
    ${langPicker ? '<div class="field" data-feature="lang"><label for="lang" data-i18n="language"></label><select id="lang"></select></div>' : ''}
    <div class="field" data-feature="scenario"><label for="scenario" data-i18n="scenario"></label><select id="scenario"></select></div>
    ${slider('ttl')}
    ${slider('pause')}
    <div class="field" data-feature="fencing"><label for="fencing" data-i18n="fencing"></label><select id="fencing"></select></div>
${more}  </section>
`,
    more: MORE_SETTINGS,
    verdict: `    <div id="outcome" class="verdict" data-testid="outcome">
      <p class="word"><span id="verdict-mark" aria-hidden="true"></span> <span id="verdict-word"></span></p>
      <p id="verdict-numbers" class="numbers"></p>
      <div id="verdict-lines"></div>
    </div>
`,
    transcript: `    <details class="transcript">
      <summary data-i18n="transcript"></summary>
      <pre id="transcript"></pre>
    </details>
`,
    heading: '  <h2 id="h-timeline"><span data-i18n="timeline"></span> — <span id="scn-title"></span></h2>\n',
    player: `  <div class="player" data-feature="play">
    <button type="button" id="play"></button>
    <button type="button" id="back" data-i18n="back" aria-keyshortcuts=","></button>
    <button type="button" id="next" data-i18n="next" aria-keyshortcuts="."></button>
    <label class="scrub"><span data-i18n="playhead"></span><input type="range" id="scrub" min="0" max="1" step="any" value="1"></label>
    <label><span data-i18n="speed"></span><select id="speed"></select></label>
  </div>
`,
    share: `    <button type="button" id="copy-link" data-i18n="copyLink"></button>
    <button type="button" id="copy-embed" data-i18n="copyEmbed"></button>
    <button type="button" id="copy-iframe" data-i18n="copyIframe"></button>
    <span data-i18n="exportAs"></span>
    <button type="button" class="export" data-kind="svg">SVG</button>
    <button type="button" class="export" data-kind="png">PNG</button>
    <button type="button" class="export" data-kind="txt" data-i18n="exportTranscript"></button>
    <button type="button" class="export" data-kind="json">JSON</button>
    <span id="share-status" role="status"></span>
    <textarea id="share-text" rows="3" readonly hidden data-i18n-label="shareField"></textarea>
`,
    now: '  <p id="now" class="now"></p>\n',
    chart: `  <div id="chart" class="chart">
    <svg id="svg" width="100%" role="img" aria-labelledby="svg-title svg-desc" xmlns="http://www.w3.org/2000/svg"></svg>
  </div>
`,
    compare: `  <details id="compare" class="compare" data-feature="compare">
    <summary data-i18n="compareTitle"></summary>
    <div class="field"><label for="compare-policy" data-i18n="compareWith"></label><select id="compare-policy"></select></div>
    <p id="compare-verdict" class="compare-verdict"></p>
    <div class="chart">
      <svg id="svg2" width="100%" role="img" aria-labelledby="svg2-title svg2-desc" xmlns="http://www.w3.org/2000/svg"></svg>
    </div>
  </details>
`,
    fine: `  <p class="fine"><span data-i18n="tieNote"></span> <span data-i18n="keysHint"></span></p>
`,
    info: `<div class="grid lower" data-feature="info">
  <section aria-labelledby="h-legend">
    <h2 id="h-legend" data-i18n="legendTitle"></h2>
    <ul id="legend" class="legend"></ul>
  </section>
  <section aria-labelledby="h-about">
    <h2 id="h-about" data-i18n="about"></h2>
    <p id="about-summary"></p>
    <p class="fine"><strong data-i18n="source"></strong>: <span id="about-source"></span></p>
    <p class="fine" id="about-derived" hidden><strong data-i18n="derived"></strong>: <span id="about-derived-text"></span></p>
  </section>
</div>
`,
    events: `<details class="events">
  <summary data-i18n="events"></summary>
  <div class="table-wrap">
    <table>
      <thead><tr><th scope="col" data-i18n="colTime"></th><th scope="col" data-i18n="colWho"></th><th scope="col" data-i18n="colWhat"></th></tr></thead>
      <tbody id="events"></tbody>
    </table>
  </div>
</details>
`,
    search: `<details id="search-box" class="search" data-feature="search">
  <summary data-i18n="searchTitle"></summary>
  <p class="fine" data-i18n="searchProves"></p>
  <fieldset class="search-dims"><legend data-i18n="searchVary"></legend><div id="search-dims"></div></fieldset>
  <div class="search-run">
    <button type="button" id="search" data-testid="search" data-i18n="searchRun"></button>
    <button type="button" id="search-cancel" data-i18n="searchCancel" hidden></button>
    <progress id="search-progress" max="1" value="0" aria-labelledby="search-progress-label" hidden></progress>
    <span id="search-progress-label" class="sr-only" data-i18n="searchProgress"></span>
  </div>
  <p id="search-status" class="note" role="status" aria-live="polite"></p>
  <div id="search-result" data-testid="search-result" hidden></div>
</details>
`,
    live: '<div id="live" class="sr-only" aria-live="polite" aria-atomic="true"></div>',
  };
}
