// The lab's markup, shared by the page (index.html) and every <lease-lab> element. Words come from the
// dictionary (data-i18n: text, data-i18n-label: aria-label), filled in by the Lab; `data-feature` names
// the `controls` token that shows a part (a list: shown if any of them is on). Ids are per root: the
// page's document, or each element's shadow root.

/** The markup; `langPicker` adds a language field to the settings (the page has one in its header). */
export function labMarkup({ langPicker = false } = {}) {
  const slider = (id) =>
    `<div class="field" data-feature="sliders"><label for="${id}" id="${id}-label"></label>` +
    `<div class="slider"><input type="range" id="${id}" step="1" aria-describedby="${id}-note"><output id="${id}-out" for="${id}"></output></div>` +
    `<p id="${id}-note" class="note" hidden></p></div>`;
  return `
<div id="notice" class="notice" role="status" hidden>
  <p><strong id="notice-title"></strong></p>
  <ul id="notice-list"></ul>
  <button type="button" id="notice-close" data-i18n="dismiss"></button>
</div>
<div class="grid" id="grid">
  <section class="controls" aria-labelledby="h-settings" data-feature="scenario sliders params fencing retries reset lang">
    <h2 id="h-settings" data-i18n="settings"></h2>
    ${langPicker ? '<div class="field" data-feature="lang"><label for="lang" data-i18n="language"></label><select id="lang"></select></div>' : ''}
    <div class="field" data-feature="scenario"><label for="scenario" data-i18n="scenario"></label><select id="scenario"></select></div>
    ${slider('ttl')}
    ${slider('pause')}
    <fieldset id="extra" class="extra" hidden>
      <legend data-i18n="extraLegend"></legend>
      <div id="extra-list"></div>
    </fieldset>
    <div class="field" data-feature="fencing"><label for="fencing" data-i18n="fencing"></label><select id="fencing"></select></div>
    <label class="check" data-feature="retries"><input type="checkbox" id="retries"> <span data-i18n="retriesLabel"></span></label>
    <div data-feature="params"><div class="field" id="naive-box" hidden>
      <label class="check"><input type="checkbox" id="naive" aria-describedby="naive-note"> <span data-i18n="naiveLabel"></span></label>
      <p class="note" id="naive-note" data-i18n="noteNaive"></p>
    </div></div>
    <button type="button" id="reset" data-i18n="reset" data-feature="reset"></button>
  </section>
  <section class="verdict-wrap" aria-labelledby="h-verdict">
    <h2 id="h-verdict" data-i18n="verdict"></h2>
    <div id="outcome" class="verdict" data-testid="outcome">
      <p class="word"><span id="verdict-mark" aria-hidden="true"></span> <span id="verdict-word"></span></p>
      <p id="verdict-numbers" class="numbers"></p>
      <div id="verdict-lines"></div>
      <p id="verdict-expected" class="fine"></p>
    </div>
    <div class="margin">
      <h3 id="h-margin" data-i18n="marginTitle"></h3>
      <ul id="margin" aria-labelledby="h-margin"></ul>
    </div>
    <details class="transcript">
      <summary data-i18n="transcript"></summary>
      <pre id="transcript"></pre>
    </details>
  </section>
</div>
<section class="timeline" aria-labelledby="h-timeline">
  <h2 id="h-timeline"><span data-i18n="timeline"></span> — <span id="scn-title"></span></h2>
  <div class="player" data-feature="play">
    <button type="button" id="play"></button>
    <button type="button" id="back" data-i18n="back"></button>
    <button type="button" id="next" data-i18n="next"></button>
    <label class="scrub"><span data-i18n="playhead"></span><input type="range" id="scrub" min="0" max="1" step="any" value="1"></label>
    <label><span data-i18n="speed"></span><select id="speed"></select></label>
  </div>
  <div class="share" data-feature="share">
    <button type="button" id="copy-link" data-i18n="copyLink"></button>
    <button type="button" id="copy-embed" data-i18n="copyEmbed"></button>
    <button type="button" id="copy-iframe" data-i18n="copyIframe"></button>
    <span data-i18n="exportAs"></span>
    <button type="button" class="export" data-kind="svg">SVG</button>
    <button type="button" class="export" data-kind="png">PNG</button>
    <button type="button" class="export" data-kind="txt" data-i18n="exportTranscript"></button>
    <button type="button" class="export" data-kind="json">JSON</button>
    <span id="share-status" role="status"></span>
    <textarea id="share-text" rows="3" readonly hidden data-i18n-label="shareField"></textarea>
  </div>
  <p id="now" class="now"></p>
  <div id="chart" class="chart">
    <svg id="svg" width="100%" role="img" aria-labelledby="svg-title svg-desc" xmlns="http://www.w3.org/2000/svg"></svg>
  </div>
  <details id="compare" class="compare" data-feature="compare">
    <summary data-i18n="compareTitle"></summary>
    <div class="field"><label for="compare-policy" data-i18n="compareWith"></label><select id="compare-policy"></select></div>
    <p id="compare-verdict" class="compare-verdict"></p>
    <div class="chart">
      <svg id="svg2" width="100%" role="img" aria-labelledby="svg2-title svg2-desc" xmlns="http://www.w3.org/2000/svg"></svg>
    </div>
  </details>
  <p class="fine"><span data-i18n="tieNote"></span> <span data-i18n="keysHint"></span></p>
</section>
<div class="grid lower" data-feature="info">
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
<details class="events">
  <summary data-i18n="events"></summary>
  <div class="table-wrap">
    <table>
      <thead><tr><th scope="col" data-i18n="colTime"></th><th scope="col" data-i18n="colWho"></th><th scope="col" data-i18n="colWhat"></th></tr></thead>
      <tbody id="events"></tbody>
    </table>
  </div>
</details>
<div id="live" class="sr-only" aria-live="polite" aria-atomic="true"></div>`;
}
