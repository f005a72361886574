import { BlockList, isIPv4, isIPv6 } from 'node:net';

const lists = new WeakMap<readonly string[], BlockList>();

/** node's BlockList for the ranges ("10.0.0.0/8", "192.0.2.1", "fd00::/8"), built once per list. */
function listOf(ranges: readonly string[]): BlockList {
  let list = lists.get(ranges);
  if (!list) {
    list = new BlockList();
    for (const r of ranges) {
      const [addr, prefix] = r.split('/') as [string, string | undefined];
      const type = isIPv4(addr) ? 'ipv4' : 'ipv6';
      if (prefix === undefined) list.addAddress(addr, type);
      else list.addSubnet(addr, Number(prefix), type);
    }
    lists.set(ranges, list);
  }
  return list;
}

/** Whether an address (IPv4, IPv6, or IPv4 mapped into IPv6 as sockets report it) is in the ranges. */
export function addressInRanges(address: string, ranges: readonly string[]): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const a = mapped ?? address;
  if (isIPv4(a)) return listOf(ranges).check(a, 'ipv4');
  if (isIPv6(a)) return listOf(ranges).check(a, 'ipv6');
  return false;
}
