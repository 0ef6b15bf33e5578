// Grouping for view models built in one pass: appends to a list kept in a Map under a key,
// creating it on first use (no copy per append, no find() in a loop).
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
