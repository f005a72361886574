import { describe, expect, it } from 'vitest';
import { classesIn, criticalCss, splitStylesheet } from '../../src/server/critical-css';

const SHEET =
  '@layer theme,base,components,utilities;@layer base{a{color:red}}' +
  '@layer utilities{.p-2{padding:var(--sp)}.m-2{margin:.5rem}.w-1\\/2{width:50%}' +
  '@media (min-width:48rem){.md\\:p-4{padding:1rem}}' +
  '@supports (color:color-mix(in lab, red, red)){.text-black\\/60{color:color-mix(in oklab,#000 60%,transparent)}}' +
  '.dark\\:bg-x:where(.dark,.dark *){background:#000}' +
  ':where(.space-y-2>:not(:last-child)){margin-block-end:.5rem}' +
  '.a,.b{content:"{"}' +
  '[dir=rtl] .rtl-only{direction:rtl}' +
  'input::placeholder{color:gray}}' +
  ':root{--k:1;--sp:var(--base);--base:.5rem}.k-unused{color:red}@media (min-resolution:2dppx){:root{--k:2}}' +
  '@property --base{syntax:"*";inherits:false}@property --k{syntax:"*";inherits:false}';

const pick = (html: string) => criticalCss(splitStylesheet(SHEET)!, html);

describe('the first screen keeps the utility rules its HTML uses (critical-css.ts)', () => {
  it('keeps the frame and the used rules, in order, and drops the unused ones', () => {
    const css = pick('<div class="p-2 w-1/2"><p class="md:p-4">x</p></div>');
    expect(css).toBe(
      '@layer theme,base,components,utilities;@layer base{a{color:red}}@layer utilities{.p-2{padding:var(--sp)}.w-1\\/2{width:50%}' +
        '@media (min-width:48rem){.md\\:p-4{padding:1rem}}input::placeholder{color:gray}}:root{--sp:var(--base);--base:.5rem}@media (min-resolution:2dppx){:root{}}' +
        '@property --base{syntax:"*";inherits:false}',
    );
  });

  it("keys a rule by its own class, not its variant's, and a list by any of its selectors", () => {
    expect(pick('<i class="dark">')).not.toContain('bg-x');
    expect(pick('<i class="dark:bg-x">')).toContain('.dark\\:bg-x');
    expect(pick('<i class="space-y-2">')).toContain('space-y-2>');
    expect(pick('<i class="b">')).toContain('.a,.b{content:"{"}');
    expect(pick('<i class="text-black/60">')).toContain('@supports');
    expect(pick('<i class="m-3">')).not.toMatch(/m-2|@supports|md\\:/);
  });

  it('drops the custom properties nothing on the page reads, keeps what a read one reads', () => {
    expect(pick('<i class="m-3">')).not.toContain('--sp');
    expect(pick('<i class="m-3" style="margin:var(--k)">')).toContain(':root{--k:1;}');
  });

  it('keeps a rule whose selector names no class; a class anywhere keys it', () => {
    expect(pick('<i>')).toContain('input::placeholder');
    expect(pick('<i class="rtl-only">')).toContain('[dir=rtl] .rtl-only');
  });

  it('reads class attributes with entities and any spacing', () => {
    expect([...classesIn('<a class=" x  y\n z"></a><b class="[&amp;&gt;p]:m-1"></b><c data-class="no"></c>')]).toEqual([
      'x',
      'y',
      'z',
      '[&>p]:m-1',
    ]);
  });

  it('keys rules outside the utilities layer too, and gives up on a sheet it cannot read (inlined whole)', () => {
    expect(pick('<i class="k-unused">')).toContain('.k-unused{color:red}');
    expect(splitStylesheet('a{color:red')).toBeNull();
  });
});
