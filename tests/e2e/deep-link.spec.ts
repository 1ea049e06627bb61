// Deep links into the inspector's "Look inside" tools on the production build:
// the address names the tensor, the position, the coordinate, the head, the
// open tool, the gradient check's parameter and δ, and the interventions; opening
// it restores that view exactly, and the address the page then writes is the
// same one (a round trip). Bad values are reported (the address notice) and
// replaced by their defaults while the rest of the view is still restored.
import { expect, test, type Page } from '@playwright/test';

const PROMPT = 'In the beginning God created';
const SHOTS = 'build/screenshots';

async function openAt(page: Page, query: string) {
  await page.goto(`./?view=inspector&prompt=${encodeURIComponent(PROMPT)}${query}`);
  await expect(page.getByTestId('inspector-results')).toBeVisible({ timeout: 20_000 });
}

/** The address's keys and values as a sorted list (the order the page writes them in does not matter). */
function keysOf(url: string): string[] {
  return [...new URL(url).searchParams.entries()].map(([k, v]) => `${k}=${v}`).sort();
}

/** Waits for the page to have written its address (debounced) and returns it. */
async function settledUrl(page: Page, mustHave: RegExp): Promise<string> {
  await expect(page).toHaveURL(mustHave);
  await page.waitForTimeout(300);
  return page.url();
}

test('the heads tool: block, head and position come back from the address, and the address the page writes is the same', async ({ page, context }) => {
  await openAt(page, '&tool=heads&head=2.3&pos=5');
  await expect(page.getByTestId('tool-heads')).toHaveAttribute('aria-selected', 'true');
  const card = page.getByTestId('look-inside-card');
  await expect(card).toContainText('Attention weights of head 3 in block 2', { timeout: 20_000 });
  await expect(page.getByTestId('look-block')).toHaveValue('2');
  await expect(card.getByRole('button', { name: 'head 3' })).toHaveAttribute('aria-pressed', 'true');
  await expect(card.locator('.attn-rows .is-row')).toHaveText('5 e');
  const url = await settledUrl(page, /head=2\.3/);
  expect(keysOf(url)).toEqual(expect.arrayContaining(['tool=heads', 'head=2.3', 'pos=5']));

  // the same address in a fresh tab: the same view, and the same address written back
  const again = await context.newPage();
  await again.goto(url);
  await expect(again.getByTestId('look-inside-card')).toContainText('Attention weights of head 3 in block 2', { timeout: 20_000 });
  expect(keysOf(await settledUrl(again, /head=2\.3/))).toEqual(keysOf(url));
});

test('every tool round-trips: set by hand, reloaded, exactly the same view', async ({ page }) => {
  await openAt(page, '');
  await page.getByTestId('look-inside').locator('> summary').click();

  // the lens: a cell picked by depth and position (the open tensor names the depth)
  await page.getByTestId('tool-lens').click();
  await page.getByTestId('look-lens-depth').selectOption({ label: 'block 1, after SwiGLU +' });
  await page.getByTestId('look-lens-pos').selectOption('6');
  const entry = (await page.getByTestId('look-lens-entry').textContent()) ?? '';
  expect(entry).toContain('Read at X′ of block 1, after SwiGLU + (blocks.1.resid.ffn) after position 6');
  let url = await settledUrl(page, /tensor=blocks\.1\.resid\.ffn/);
  await page.reload();
  await expect(page.getByTestId('look-lens-entry')).toHaveText(entry, { timeout: 20_000 });
  expect(keysOf(await settledUrl(page, /tool=lens/))).toEqual(keysOf(url));

  // the gradient check: a parameter, a row, a column and both δ
  await page.getByTestId('tool-gradcheck').click();
  await page.getByTestId('gc-target').selectOption('param:blocks.1.attn.wv.weight');
  await page.getByTestId('gc-row').fill('9');
  await page.getByTestId('gc-row').press('Enter');
  await page.getByTestId('gc-coord').fill('33');
  await page.getByTestId('gc-coord').press('Enter');
  await page.getByTestId('gc-d32').fill('0.01');
  await page.getByTestId('gc-d32').press('Enter');
  await page.getByTestId('gc-d64').fill('1e-7');
  await page.getByTestId('gc-d64').press('Enter');
  const caption = page.getByTestId('gc-table').locator('caption');
  await expect(caption).toContainText('(blocks.1.attn.wv.weight), element (9, 33) of shape (128, 128)', { timeout: 20_000 });
  await expect(page.getByTestId('gc-float64').locator('td').first()).toHaveText('1e-7');
  const table = (await page.getByTestId('gc-table').textContent()) ?? '';
  url = await settledUrl(page, /d64=1e-7/);
  expect(keysOf(url)).toEqual(expect.arrayContaining(['tool=gradcheck', 'param=blocks.1.attn.wv.weight', 'pos=9', 'coord=33', 'd32=0.01', 'd64=1e-7']));
  await page.reload();
  await expect(page.getByTestId('gc-table')).toHaveText(table, { timeout: 20_000 });
  expect(keysOf(await settledUrl(page, /tool=gradcheck/))).toEqual(keysOf(url));

  // interventions
  await page.getByTestId('tool-intervene').click();
  await page.getByTestId('iv-kind').selectOption('eps');
  await page.getByTestId('iv-target').selectOption('blocks.3.norm_ffn');
  await page.getByTestId('iv-value').fill('0.01');
  await page.getByTestId('iv-add').click();
  await page.getByTestId('iv-kind').selectOption('unitGamma');
  await page.getByTestId('iv-target').selectOption('norm_final');
  await page.getByTestId('iv-add').click();
  // the core's answer for both (its reproduce line names what the core read)
  await expect(page.getByTestId('iv-reproduce-command')).toContainText('--intervene eps:blocks.3.norm_ffn:0.01,unitGamma:norm_final', { timeout: 20_000 });
  const after = await page.getByTestId('iv-loss-after').textContent();
  url = await settledUrl(page, /iv=eps:blocks\.3\.norm_ffn:0\.01,unitGamma:norm_final/);
  await page.reload();
  await expect(page.getByTestId('iv-list').locator('li')).toHaveCount(2, { timeout: 20_000 });
  await expect(page.getByTestId('iv-loss-after')).toHaveText(after!, { timeout: 20_000 });
  expect(keysOf(await settledUrl(page, /tool=intervene/))).toEqual(keysOf(url));

  // closing the tools takes their tool key out of the address
  await page.getByTestId('look-inside').locator('> summary').click();
  await expect(page).not.toHaveURL(/[?&]tool=/);
});

test('bad values in the tools’ keys: each reported, its default used, the rest of the view restored', async ({ page }) => {
  await openAt(page, '&tensor=blocks.2.attn&of=grad&tool=intervene&pos=999&coord=x&head=one.two&d32=-1&iv=melt:blocks.0,zero:blocks.1.ffn,scale:blocks.0.attn');
  const problems = page.getByTestId('url-problems');
  await expect(problems).toContainText('The address has pos="999": not a position of the prompt (a whole number from 0 to 27); using position 0.');
  await expect(problems).toContainText('The address has coord="x": not a coordinate');
  await expect(problems).toContainText('The address has head="one.two": not a block and a head');
  await expect(problems).toContainText('The address has d32="-1": δ must be above 0 and at most 1; using 0.001.');
  await expect(problems).toContainText('The address has the intervention "melt:blocks.0" in iv: unknown kind "melt"');
  await expect(problems).toContainText('The address has the intervention "scale:blocks.0.attn" in iv: scale takes a branch and a factor');
  // the good keys: the open tensor's gradient, and the one good intervention
  await expect(page.getByTestId('heatmap')).toContainText('∂loss/∂blocks.2.attn');
  await expect(page.getByTestId('iv-list').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('iv-list')).toContainText('zero:blocks.1.ffn');
  await expect(page.getByTestId('iv-loss-after')).toHaveText(/\d/, { timeout: 20_000 });
  await page.screenshot({ path: `${SHOTS}/deep-link-bad-values.png` });
});

test('names the model does not have: the core says what exists; the page stays usable', async ({ page }) => {
  // a head and block beyond this model: shown as the nearest, with a line saying so
  await openAt(page, '&tool=heads&head=9.9');
  await expect(page.getByTestId('look-head-outside')).toContainText('The address asks for head 9 of block 9; this model has blocks 0 to 3 with heads 0 to 3', {
    timeout: 20_000,
  });
  // interventions naming parts that do not exist: the core's refusal lists what does
  for (const [iv, says] of [
    ['zero:blocks.7.attn', 'no branch named "blocks.7.attn"'],
    ['ablateHead:1:9', 'head 9 does not exist; each block has heads 0 to 3'],
    ['identityNorm:blocks.0.norm_mlp', 'no norm named "blocks.0.norm_mlp"; this model\'s norms are blocks.0.norm_attn'],
  ]) {
    await openAt(page, `&tool=intervene&iv=${iv}`);
    await expect(page.getByTestId('iv-error')).toContainText(says, { timeout: 20_000 });
    await expect(page.getByTestId('iv-error')).toContainText('The core refused this list, so nothing was changed');
  }
  // remove it and the tool works again
  await page.getByRole('button', { name: /^Remove / }).click();
  await expect(page.getByTestId('interventions')).toContainText('No change yet');
  await expect(page.getByTestId('iv-error')).toHaveCount(0);
  // a parameter the model does not have in the gradient check
  await openAt(page, '&tool=gradcheck&param=blocks.0.attn.wz.weight');
  await expect(page.getByTestId('gc-error')).toContainText('"blocks.0.attn.wz.weight" is neither a snapshot nor a parameter', { timeout: 20_000 });
  await expect(page.getByTestId('gc-error')).toContainText('parameters: tok_emb.weight');
});
