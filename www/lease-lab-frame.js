// lease-lab-frame.js: for a host page that embeds the lab as an iframe (embed.html). It sizes each such
// frame to the lab inside it, and again whenever the lab grows or shrinks (a reader opens the
// side-by-side view, the column narrows on a phone), so the frame never scrolls inside nor leaves a gap.
// Include it once, anywhere on the page; it works across origins:
//
//   <script src="https://example.org/leaselab/lease-lab-frame.js" async></script>
//
// embed.html posts { type: 'leaselab:height', height } to its parent. Only a message from an iframe of
// this page whose address is an embed.html is taken, and only that iframe changes: another frame on
// the page cannot resize anything with it. A classic script (no import or export, nothing global), so
// that it works as a plain <script src> and as type="module" alike.
(function followLeaselabFrames() {
  const TYPE = 'leaselab:height';
  const MAX_PX = 20000; // a bound on what a frame may ask for

  function isEmbed(frame) {
    try {
      return /\/embed(\.html)?$/.test(new URL(frame.src, location.href).pathname);
    } catch {
      return false;
    }
  }

  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== TYPE || !Number.isFinite(d.height) || d.height <= 0) return;
    for (const frame of document.getElementsByTagName('iframe')) {
      if (frame.contentWindow !== e.source || !isEmbed(frame)) continue;
      // CSSOM, not a style attribute: allowed under a CSP without 'unsafe-inline'.
      frame.style.height = `${Math.min(Math.ceil(d.height), MAX_PX)}px`;
    }
  });
})();
