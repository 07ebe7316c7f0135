// The Bengali face of style.css, declared on the host document for an element whose shadow root shows
// Bengali (<lease-lab-matrix lang="bn">): a shadow root ignores @font-face. As in style.css, it
// downloads only if Bengali letters show and no local font has them (local() first, unicode-range).
// (lease-lab.js declares the same face for <lease-lab>; FontFaceSet keeps both harmlessly.)

let declared = false;

/** Adds the face once per page; where the browser has no FontFace API the system's fonts serve. */
export function declareBengaliFace() {
  if (declared || typeof FontFace !== 'function' || !document.fonts) return;
  declared = true;
  const url = new URL('fonts/noto-sans-bengali-400.woff2', import.meta.url).href;
  const local = ['Noto Sans Bengali', 'Noto Sans Bengali Regular', 'NotoSansBengali-Regular', 'Noto Sans Bengali UI', 'Lohit Bengali'];
  const src = `${local.map((n) => `local("${n}")`).join(', ')}, url("${url}") format("woff2")`;
  document.fonts.add(new FontFace('leaselab Bengali', src, { unicodeRange: 'U+0964-0965, U+0980-09FE, U+200C-200D, U+25CC', display: 'swap' }));
}
