// check.mjs DIR: reads the table files scripts/interop/run.sh made in DIR
// with DuckDB (@duckdb/node-api: Parquet, and the CSV twins) and Apache
// Arrow JS (apache-arrow: Arrow IPC files), and checks that every value
// equals the twin's: numbers within 1e-6 relative (CSV floats have 7
// significant digits, the binary files float32 or float64), strings and
// booleans exactly, an empty CSV field as null. Exits 1 naming the file,
// row and column of the first difference of each pair of files.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node check.mjs DIR');
  process.exit(2);
}
const db = await (await DuckDBInstance.create(':memory:')).connect();
const sql = (q) => db.runAndReadAll(q).then((r) => r.getRowObjectsJS());
const lit = (p) => `'${join(dir, p).replaceAll("'", "''")}'`;

// Readers: each returns an array of row objects, column name → value.
const csv = (p) => sql(`SELECT * FROM read_csv(${lit(p)}, all_varchar = true, header = true)`);
const parquet = (p, order = '') => sql(`SELECT * FROM read_parquet(${lit(p)}, hive_partitioning = true)${order}`);
function arrow(p) {
  const t = tableFromIPC(readFileSync(join(dir, p)));
  const names = t.schema.fields.map((f) => f.name);
  const rows = [];
  for (let i = 0; i < t.numRows; i++) {
    const o = {};
    for (const n of names) {
      let v = t.getChild(n).get(i);
      if (v !== null && typeof v === 'object' && typeof v.toArray === 'function') v = Array.from(v.toArray());
      o[n] = v;
    }
    rows.push(o);
  }
  return rows;
}

let failures = 0;
let checked = 0;
function fail(msg) {
  console.error('interop: ' + msg);
  failures++;
}

// same reports whether a and b (either may be a CSV string) are one value.
function same(a, b) {
  const norm = (v) => (v === '' || v === undefined ? null : typeof v === 'bigint' ? Number(v) : v);
  a = norm(a);
  b = norm(b);
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b);
  const x = Number(a);
  const y = Number(b);
  if (typeof a === 'number' || typeof b === 'number') {
    if (Number.isNaN(x) && Number.isNaN(y)) return true;
    return Math.abs(x - y) <= 1e-6 * Math.max(Math.abs(x), Math.abs(y)) + 1e-9;
  }
  return String(a) === String(b);
}

// compare checks that two readings of one table hold the same rows, in
// order, with the same values in every column both have (want: the
// columns, at least these, both must have).
function compare(what, ra, rb, nameA, nameB, want = []) {
  if (ra.length === 0) fail(`${what}: ${nameA} has no rows`);
  if (ra.length !== rb.length) return fail(`${what}: ${nameA} has ${ra.length} rows, ${nameB} ${rb.length}`);
  const ca = Object.keys(ra[0] ?? {});
  const cb = new Set(Object.keys(rb[0] ?? {}));
  const cols = ca.filter((c) => cb.has(c));
  for (const c of want) if (!cols.includes(c)) fail(`${what}: column ${c} not in both ${nameA} and ${nameB}`);
  for (let i = 0; i < ra.length; i++) {
    for (const c of cols) {
      if (!same(ra[i][c], rb[i][c])) {
        return fail(`${what}: row ${i + 1}, column ${c}: ${nameA} has ${ra[i][c]}, ${nameB} ${rb[i][c]}`);
      }
    }
  }
  checked++;
  console.log(`interop: ${what}: ${nameA} = ${nameB} (${ra.length} rows, ${cols.length} columns)`);
}

const predCols = ['drug_a_id', 'drug_b_id', 'cell_line', 'mu', 'sigma_total', 'sigma_epistemic', 'sigma_aleatoric', 'lower', 'upper', 'measured'];
const predCSV = await csv('pred.csv');
compare('predict', await parquet('pred.parquet'), predCSV, 'pred.parquet (DuckDB)', 'pred.csv', predCols);
compare('predict', arrow('pred.arrow'), predCSV, 'pred.arrow (Arrow JS)', 'pred.csv', predCols);

// The shards, read by DuckDB as one hive-partitioned table, are the rows of
// the one-process run (in the order of its pairs).
const order = ' ORDER BY drug_a_id, drug_b_id';
const plain = await sql(`SELECT * FROM read_csv(${lit('pred-plain.csv')}, all_varchar = true, header = true)${order}`);
compare('scores shards', await parquet('scores/*/*.parquet', order), plain, 'scores/ (DuckDB, hive)', 'pred-plain.csv', ['cell_line', 'mu', 'sigma_total']);

const suggCols = ['rank', 'drug_a_id', 'drug_b_id', 'mu', 'sigma_epistemic', 'lower', 'upper', 'acquisition', 'reason'];
compare('suggest', await parquet('sugg.parquet'), await csv('sugg.csv'), 'sugg.parquet (DuckDB)', 'sugg.csv', suggCols);

// bench: predictions.parquet has no CSV twin; its rows give back the RMSE
// per method and seed that results.json reports.
const res = JSON.parse(readFileSync(join(dir, 'bench-out', 'results.json'), 'utf8'));
const rmse = await sql(`SELECT method, seed, sqrt(avg((y - mu) * (y - mu))) AS rmse, count(*) AS n FROM read_parquet(${lit('bench-out/predictions.parquet')}) GROUP BY method, seed ORDER BY method, seed`);
if (rmse.length === 0) fail('bench: predictions.parquet has no rows');
for (const r of rmse) {
  const m = res.methods[r.method];
  const want = m?.rmse?.per_seed?.[res.seed_values.indexOf(Number(r.seed))];
  if (want === undefined) fail(`bench: results.json has no rmse of ${r.method} seed ${r.seed}`);
  else if (!same(r.rmse, want)) fail(`bench: ${r.method} seed ${r.seed}: rmse from predictions.parquet (DuckDB) ${r.rmse}, results.json ${want}`);
}
if (rmse.length) {
  checked++;
  console.log(`interop: bench: predictions.parquet (DuckDB) gives results.json's rmse for ${rmse.length} method-seeds`);
}

if (existsSync(join(dir, 'oneil'))) {
  for (const t of ['blocks', 'wells']) {
    compare('data synergy', await parquet(`oneil/${t}.parquet`), await csv(`oneil/${t}.csv`), `oneil/${t}.parquet (DuckDB)`, `oneil/${t}.csv`, ['block_id', 'zip', 'loewe', 'hsa', 'bliss']);
  }
  for (const t of ['pairs', 'drugs']) {
    compare('data import (almanac)', arrow(`pc3/${t}.arrow`), await parquet(`pc3/${t}.parquet`), `pc3/${t}.arrow (Arrow JS)`, `pc3/${t}.parquet (DuckDB)`);
  }
}

if (failures) {
  console.error(`interop: ${failures} difference(s)`);
  process.exit(1);
}
console.log(`interop: ${checked} table pairs equal`);
