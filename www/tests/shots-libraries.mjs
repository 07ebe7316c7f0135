// Screenshots of a library scenario's lab at 390 and 1280 px, en and bn, into /work/shots/ (temporary).
import { setup, openPage } from './helpers.mjs';

const env = await setup();
try {
  for (const id of (process.argv[2] || 'kazoo-is-acquired').split(',')) {
    for (const lang of ['en', 'bn']) {
      for (const [w, h] of [[390, 844], [1280, 900]]) {
        const { context, page } = await openPage(env.browser, { width: w, height: h });
        await page.goto(`${env.url}?scenario=${id}&lang=${lang}`);
        await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
        await page.locator('#svg path.notice').first().waitFor();
        await page.locator('#chart').screenshot({ path: `/work/shots/${id}-${lang}-${w}-diagram.png` });
        await page.screenshot({ path: `/work/shots/${id}-${lang}-${w}.png`, fullPage: true });
        await context.close();
      }
    }
  }
} finally {
  await env.close();
}
