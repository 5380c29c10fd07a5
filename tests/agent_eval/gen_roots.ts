/**
 * Writes the agent evaluation's two engine roots, its questions and their answer keys:
 *
 *     deno run -P=test tests/agent_eval/gen_roots.ts /tmp/eval     # then see README.md
 *
 * OUT/prod: sites adthub, lab, rad (20.1 IDE NetConfigs) and pharmbill (old Tcl writer: BOM, CRLF),
 * server.ini, siteInfo (pharmbill's with its time zone), lab's saved versions 1.1-1.3 and rad's 1.1-1.2
 * (version/NetConfig/1.N and version.db; rad's live file is a rollback to 1.1), SMAT (.smatdb,
 * SmatHistory, .idx/.msg pairs, one with an overlapping SmatHistory copy). OUT/test: adthub and lab
 * as a test box has them.
 * OUT/questions.json, OUT/keys.json (computed from the model, not by the tools), OUT/canaries.json.
 */
import { DatabaseSync } from "node:sqlite";
import { tps, writeNetConfig } from "../support/nc_writer.ts";
import { writeSmatDb, writeSmatFiles } from "../support/smat_writer.ts";
import {
  lab,
  LAB_SAVES,
  LAB_VERSIONS,
  prodSites,
  rad,
  RAD_SAVES,
  RAD_VERSIONS,
  type Save,
  type SiteModel,
  siteRecords,
  testSites,
} from "./engine_model.ts";
import { PHARMBILL_TZ, traffic } from "./messages.ts";
import { answerKeys, QUESTIONS, questionVars } from "./answer_keys.ts";

async function put(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** bill_in's DFT_P03 proc with the ARGS naming its table, as a real route detail carries them. */
export const FIN_CLASS_ARGS = "{TABLE fin_class_map} {DEFAULT SELF}";

function netConfig(site: SiteModel, who: string, date: string): string {
  const text = writeNetConfig(
    { who, date, version: site.style === "tcl" ? "3.10" : undefined },
    siteRecords(site),
    site.style === "tcl" ? { style: "tcl", bom: true, crlf: true, preamble: ["# pharmbill site"] } : {},
  );
  return text.replace(tps(["tps_fin_class"]), tps(["tps_fin_class"], [FIN_CLASS_ARGS]));
}

function siteInfo(release: string, description: string, zone?: string): string {
  return [
    `sitedescription="${description}"`,
    `releasenum=${release}`,
    "releasetype=P",
    "smathistoryenabled=1",
    ...(zone ? [`timezone=${zone}`] : []),
    "",
  ].join("\n");
}

async function writeRoot(root: string, sites: SiteModel[]): Promise<void> {
  await put(
    `${root}/server/server.ini`,
    `[exports]\nenvirons=${sites.map((s) => `${root}/${s.name}`).join(";")}\n`,
  );
  for (const s of sites) {
    await put(`${root}/${s.name}/NetConfig`, netConfig(s, "hci", "November 20, 2026 7:55:10 AM CST"));
    const zone = s.name === "pharmbill" ? PHARMBILL_TZ : undefined;
    await put(
      `${root}/${s.name}/siteInfo`,
      siteInfo(s.style === "tcl" ? "6.2" : "20.1", s.description, zone),
    );
    for (const p of s.processes) {
      await Deno.mkdir(`${root}/${s.name}/exec/processes/${p}`, { recursive: true });
    }
  }
}

/** A site's saved versions (the engine's version control: version/NetConfig/1.N and version.db). */
async function writeVersions(root: string, site: string, saves: Save[], models: SiteModel[]): Promise<void> {
  for (let i = 0; i < saves.length; i++) {
    await put(
      `${root}/${site}/version/NetConfig/${saves[i].version}/NetConfig`,
      netConfig(models[i], saves[i].operator, new Date(saves[i].time).toUTCString()),
    );
  }
  const db = new DatabaseSync(`${root}/${site}/version/version.db`);
  try {
    db.exec(`CREATE TABLE version_history (file_name TEXT, version TEXT, tag TEXT, check_in_time INTEGER,
      comments TEXT, operator TEXT, PRIMARY KEY (file_name, version));
      CREATE TABLE version_operation (file_name TEXT PRIMARY KEY, version TEXT, tag TEXT, operation_time INTEGER,
      lastmodified INTEGER, operation TEXT, operator TEXT, checkout INTEGER);`);
    const ins = db.prepare("INSERT INTO version_history VALUES ('NetConfig', ?, '', ?, ?, ?)");
    for (const s of saves) ins.run(s.version, s.time, s.comment, s.operator);
    const last = saves[saves.length - 1];
    db.prepare("INSERT INTO version_operation VALUES ('NetConfig', ?, '', ?, ?, 'CHECK_IN', ?, 0)").run(
      last.version,
      last.time,
      last.time,
      last.operator,
    );
  } finally {
    db.close();
  }
}

export async function generate(out: string): Promise<void> {
  const prod = `${out}/prod`, test = `${out}/test`;
  await writeRoot(prod, prodSites());
  await writeRoot(test, testSites());
  await writeVersions(prod, "lab", LAB_SAVES, LAB_VERSIONS.map((v) => lab(v)));
  // rad: 1.2 moved ris_adt_out to another port; the live NetConfig was rolled back to 1.1's content.
  await writeVersions(prod, "rad", RAD_SAVES, RAD_VERSIONS.map((v) => rad(v.risAdtPort)));
  await put(
    `${prod}/pharmbill/Tables/fin_class_map.tbl`,
    "prologue\n    type:\ttbl\n    version:\t3.0\nend_prologue\ndflt=SELF\n#\nMC\nMEDICARE\n#\nMD\nMEDICAID\n",
  );
  await put(
    `${prod}/pharmbill/tclprocs/tps_fin_class.tcl`,
    "proc tps_fin_class { args } {\n    keylget args ARGS.TABLE table\n    return {}\n}\n",
  );

  const t = traffic();
  const adtProc = `${prod}/adthub/exec/processes/adt_proc`,
    adtOb = `${prod}/adthub/exec/processes/adt_ob_proc`;
  await Deno.mkdir(`${adtProc}/SmatHistory`, { recursive: true });
  writeSmatDb(`${adtProc}/reg_adt_in.smatdb`, t.regAdt);
  writeSmatDb(`${adtProc}/SmatHistory/reg_adt_in.2026-11-23_00-00-01.smatdb`, t.regAdtHistory);
  writeSmatDb(`${adtOb}/lab_adt_out.smatdb`, t.labAdtOut);
  writeSmatDb(`${adtOb}/lab_adt_out_ack.smatdb`, t.labAdtAck);
  await writeSmatFiles(`${prod}/lab/exec/processes/lab_proc/lab_results_in`, t.labResults, true);
  const billProc = `${prod}/pharmbill/exec/processes/bill_proc`;
  await Deno.mkdir(`${billProc}/SmatHistory`, { recursive: true });
  await writeSmatFiles(`${billProc}/bill_in`, t.billIn);
  await writeSmatFiles(`${billProc}/SmatHistory/bill_in.2026-11-24_03-00-00`, t.billInHistory);
  // The test box has a few of the same messages.
  writeSmatDb(`${test}/adthub/exec/processes/adt_proc/reg_adt_in.smatdb`, t.regAdt.slice(0, 50));

  const vars: Record<string, string> = { TEST_ROOT: test, PROD_ROOT: prod, ...questionVars(t) };
  const questions = QUESTIONS.map((q) => ({ ...q, text: q.text.replace(/\{(\w+)\}/g, (_, k) => vars[k]) }));
  await put(`${out}/questions.json`, JSON.stringify(questions, null, 2) + "\n");
  await put(`${out}/keys.json`, JSON.stringify(answerKeys(t), null, 2) + "\n");
  await put(`${out}/canaries.json`, JSON.stringify(t.canaries) + "\n");
}

if (import.meta.main) {
  const out = Deno.args[0];
  if (!out) {
    console.error("usage: deno run -P=test tests/agent_eval/gen_roots.ts <empty folder>");
    Deno.exit(2);
  }
  await generate(out);
  console.log(`${out}/prod and ${out}/test written, with questions.json, keys.json, canaries.json`);
}
