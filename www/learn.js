// learn.html: the chapter index and one Lesson (lesson.js) bound to the document. The chapter is in the
// hash (#chapter-N, deep-linkable); the language in ?lang=; progress in localStorage when allowed.
import { Lesson, chapters, words, loadProgress } from './lesson.js';
// The first beat runs the core engine at once (its predicates): in the module graph, so that its wasm is
// preloaded with the page (tools/preload.mjs) rather than found only when the beat asks for it.
import './pkg/leaselab.js';
import { languages, loadLang } from './i18n.js';

const $ = (id) => document.getElementById(id);

function query() {
  try {
    return new URLSearchParams(location.search);
  } catch {
    return new URLSearchParams(); // sandboxed frames may refuse access to location
  }
}

/** The chapter the hash names (#chapter-N), or null. */
function hashChapter() {
  let h = '';
  try {
    h = location.hash;
  } catch {
    return null;
  }
  const m = /^#chapter-(\d+)$/.exec(h);
  return m ? Number(m[1]) : h ? NaN : null;
}

const q = query();
let lang = Object.hasOwn(languages, q.get('lang')) && words[q.get('lang')] ? q.get('lang') : 'en';
const w = () => ({ ...words.en, ...words[lang] });
const num = (x) => (lang === 'en' ? String(x) : new Intl.NumberFormat(lang, { useGrouping: false }).format(x));

function renderPage() {
  const t = w();
  document.documentElement.lang = lang;
  document.title = t.docTitle;
  $('learn-h1').textContent = t.h1;
  $('learn-lede').textContent = t.lede;
  $('learn-to-lab').textContent = t.toLab;
  $('learn-to-lab').href = lang === 'en' ? './' : `./?lang=${lang}`;
  $('learn-to-matrix').textContent = t.toMatrix;
  $('learn-to-matrix').href = lang === 'en' ? 'matrix.html' : `matrix.html?lang=${lang}`;
  $('learn-index-h').textContent = t.chapters;
  loadLang(lang).then((d) => ($('learn-lang-label').textContent = d.language));
  renderIndex();
}

function renderIndex() {
  const t = w();
  const p = loadProgress();
  const ol = $('learn-index');
  ol.replaceChildren();
  chapters.forEach((ch, i) => {
    const n = i + 1;
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#chapter-${n}`;
    a.textContent = ch.title[lang] || ch.title.en;
    if (lesson && lesson.chapter === n) a.setAttribute('aria-current', 'page');
    li.appendChild(a);
    const seen = p[String(n)];
    if (seen !== undefined) {
      const s = document.createElement('span');
      s.className = 'learn-seen';
      const all = ch.beats.length;
      s.textContent = seen + 1 >= all ? ` ✓ ${t.done}` : ` (${t.progress.replace('{i}', num(seen + 1)).replace('{n}', num(all))})`;
      li.appendChild(s);
    }
    ol.appendChild(li);
  });
  // On a phone the index is a row that scrolls sideways (style.css): the current chapter in view.
  const current = ol.querySelector('[aria-current]');
  if (current) ol.scrollLeft += current.getBoundingClientRect().left - ol.getBoundingClientRect().left - 16;
}

// 'auto' (no page sets scroll-behavior) rather than 'instant', which older WebKit refuses.
const motion = () => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/**
 * Once a step shows its run (answered, or a step that asks nothing), its question (or its text), the
 * verdict and the diagram in one view (issue 38): the page scrolls by as little as shows the diagram
 * whole, never past the question's top (the text's), and not at all if they fit.
 */
function keepInView() {
  const question = $(`ls-${$('ls-question').hidden ? 'say' : 'question'}`).getBoundingClientRect();
  const chart = $('chart').getBoundingClientRect();
  const by = Math.min(chart.bottom + 8 - innerHeight, question.top - 8);
  if (by > 0) scrollBy({ top: by, behavior: motion() });
}

/** A step after the one read lower down (Next under the answer): it starts at its top. */
function showStepTop() {
  const top = $('lesson').getBoundingClientRect().top;
  if (top < 0) scrollBy({ top: top - 8, behavior: motion() });
}

function writeState() {
  try {
    const url = new URL(location.href);
    if (lang === 'en') url.searchParams.delete('lang');
    else url.searchParams.set('lang', lang);
    url.hash = `chapter-${lesson.chapter}`;
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  } catch {
    // no history here (sandboxed frame): the page keeps working without it
  }
}

let lesson = null;
const asked = hashChapter();
const bad = asked !== null && !(asked >= 1 && asked <= chapters.length);
const start = asked !== null && !bad ? asked : loadProgress().last || 1;

$('learn-status').hidden = false;
renderPage();
lesson = new Lesson(document, $('learn-host'), {
  chapter: bad ? 1 : start,
  lang,
  acrossChapters: true,
  onMove() {
    renderIndex();
    writeState();
    showStepTop();
    if (!$('lab').hidden) keepInView();
  },
  onReveal: keepInView,
});
lesson.start().then(
  () => {
    $('learn-status').hidden = true;
    if (bad) {
      $('learn-notice').textContent = w().lessonNotFound.replace('{n}', String(location.hash).slice(1));
      $('learn-notice').hidden = false;
    }
    const sel = $('learn-lang');
    for (const [k, name] of Object.entries(languages)) {
      if (!words[k]) continue;
      const o = document.createElement('option');
      o.value = k;
      o.lang = k;
      o.textContent = name;
      sel.appendChild(o);
    }
    sel.value = lang;
    $('learn-lang-field').hidden = false;
    sel.addEventListener('change', async () => {
      lang = sel.value;
      await lesson.setLang(lang);
      renderPage();
      writeState();
    });
    addEventListener('hashchange', () => {
      const n = hashChapter();
      if (n >= 1 && n <= chapters.length && n !== lesson.chapter) lesson.go(n, 0).then(() => $('lesson').focus());
    });
  },
  (e) => {
    $('learn-status').textContent = String(e && e.message ? e.message : e);
    $('learn-status').classList.add('error');
  },
);
