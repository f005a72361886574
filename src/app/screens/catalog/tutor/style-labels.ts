import type { DictItem } from '../../../../api/catalog';

/** Style keys as the `style` dictionary names them; an unknown key shows as it is. */
export function styleLabels(keys: readonly string[], dict: readonly DictItem[]): string[] {
  return keys.map((k) => dict.find((d) => d.value === k)?.label ?? k);
}
