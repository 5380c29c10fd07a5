/**
 * The agent evaluation's two engine roots as data: every site, thread, route and destination, and
 * the few differences between the saved NetConfig versions and the second ("test") root. The
 * generator (gen_roots.ts) writes these through the test suite's NetConfig writer; the answer keys
 * (answer_keys.ts) are computed from this same data, never by running the program's tools.
 * Not run by CI (see README.md).
 */
import {
  destinationRecord,
  kl,
  processRecord,
  protocolRecord,
  q,
  ql,
  type Record3,
  type RouteSpec,
  type ThreadSpec,
  tps,
} from "../support/nc_writer.ts";

export interface Dest {
  name: string;
  host: string;
  port: number;
}

export interface SiteModel {
  name: string;
  style: "ide" | "tcl";
  description: string;
  processes: string[];
  threads: ThreadSpec[];
  dests: Dest[];
}

/** Engine-wide knobs that differ between saved versions and roots. */
export interface Variant {
  /** lab: lab_sys_out's host (changed in lab 1.3). */
  labSysHost: string;
  /** lab: the ADT_A08 detail of lab_adt_in (disabled in lab 1.3). */
  labA08Enabled: boolean;
  /** lab: ORU_R01 of lab_results_in also to a file (added in lab 1.2). */
  labResultsCopy: boolean;
  /** adthub: reg_adt_in's port (45001 on the test root). */
  regPort: number;
  /** adthub: the ADT_A03 route of reg_adt_in on or off (on in the test root). */
  a03Enabled: boolean;
  /** adthub: ADT_A08 also to adt_archive (not on the test root). */
  a08Archive: boolean;
}

export const PROD: Variant = {
  labSysHost: "labsys.example.org",
  labA08Enabled: false,
  labResultsCopy: true,
  regPort: 35001,
  a03Enabled: false,
  a08Archive: true,
};

/** lab's saved versions 1.1 .. 1.3 (1.3 is the live one on prod). */
export const LAB_VERSIONS: Variant[] = [
  { ...PROD, labSysHost: "labsys-old.example.org", labA08Enabled: true, labResultsCopy: false },
  { ...PROD, labSysHost: "labsys-old.example.org", labA08Enabled: true },
  PROD,
];

export const TEST: Variant = { ...PROD, regPort: 45001, a03Enabled: true, a08Archive: false };

/** One saved version of a site's NetConfig (a version_history row). */
export interface Save {
  version: string;
  /** Check-in time, ms since the epoch (UTC). */
  time: number;
  comment: string;
  operator: string;
}

/** lab's check-ins, one per LAB_VERSIONS entry; the live NetConfig equals the last. */
export const LAB_SAVES: Save[] = [
  { version: "1.1", time: Date.UTC(2026, 9, 5, 15, 0), comment: "First check in", operator: "jdoe" },
  {
    version: "1.2",
    time: Date.UTC(2026, 10, 2, 16, 30),
    comment: "Copy results to results.txt",
    operator: "cintegrator",
  },
  {
    version: "1.3",
    time: Date.UTC(2026, 10, 18, 14, 5),
    comment: "New lab system host",
    operator: "cintegrator",
  },
];

/** rad's check-ins, one per RAD_VERSIONS entry; the live NetConfig equals 1.1 (a rollback). */
export const RAD_SAVES: Save[] = [
  { version: "1.1", time: Date.UTC(2026, 9, 12, 13, 40), comment: "First check in", operator: "jdoe" },
  {
    version: "1.2",
    time: Date.UTC(2026, 10, 10, 15, 20),
    comment: "RIS ADT feed to new port",
    operator: "mkowalski",
  },
];

/** REPLYCONTROL and SMS of a client that waits for ACKs and checks them in IN_REPLY. */
function ackClientExtra(): ThreadSpec["extra"] {
  const sms = (procs: string[], args: string[]) =>
    kl({ ARGS: ql(args), PROCS: ql(procs), PROCSCONTROL: q(""), THREADED: "0" });
  return {
    REPLYCONTROL: kl({ OBRESEND: "3", REPLYGEN: kl({ TYPE: "none" }), TIMEOUT: "30000", WAIT: "1" }),
    SMS: kl({
      FWD_DATA: tps(),
      IN_DATA: sms([], []),
      IN_REPLY: sms(["cl_check_ack"], ["{RESEND_ON AR}"]),
      OUT_DATA: sms([], []),
    }),
  };
}

export function adthub(v: Variant): SiteModel {
  const a08: RouteSpec = {
    trxid: "ADT_A08",
    details: [{ type: "raw", dest: ["lab_adt_out", "adt_to_rad"] }],
  };
  if (v.a08Archive) a08.details.push({ type: "raw", dest: ["adt_archive"] });
  return {
    name: "adthub",
    style: "ide",
    description: "ADT hub",
    processes: ["adt_proc", "adt_ob_proc"],
    threads: [
      {
        name: "reg_adt_in",
        process: "adt_proc",
        type: "pdl-tcpip",
        isServer: true,
        port: v.regPort,
        smatIn: "reg_adt_in",
        inProcs: ["tps_validate_msh"],
        routes: [
          {
            trxid: "ADT_A01",
            details: [
              { type: "xlate", dest: ["lab_adt_out"], xlate: "adt_a01_lab.xlt", pre: ["tps_fix_pid"] },
              { type: "raw", dest: ["adt_to_rad"] },
            ],
          },
          a08,
          { trxid: "ADT_A03", enabled: v.a03Enabled, details: [{ type: "raw", dest: ["lab_adt_out"] }] },
          { trxid: "ADT_A04", details: [{ type: "raw", dest: ["adt_archive"] }] },
          {
            trxid: "ADT_A11",
            details: [{ type: "generate", procs: ["gen_cancel_route"], args: [GEN_CANCEL_ARGS] }],
          },
        ],
      },
      {
        name: "ord_in",
        process: "adt_proc",
        type: "tcpip",
        isServer: true,
        port: 35002,
        routes: [{
          trxid: "ORM_O01",
          details: [
            { type: "raw", dest: ["ord_to_rad"] },
            { type: "raw", dest: ["legacy_ord_out"], enabled: false },
          ],
        }],
      },
      {
        name: "lab_adt_out",
        process: "adt_ob_proc",
        type: "tcpip",
        host: "localhost",
        port: 36001,
        smatIn: "lab_adt_out_ack",
        smatOut: "lab_adt_out",
        replyRoutes: [{ trxid: "ACK", details: [{ type: "raw", dest: ["ack_audit_out"] }] }],
        extra: ackClientExtra(),
      },
      { name: "adt_archive", process: "adt_ob_proc", type: "fileset", obdir: "archive/adt" },
      { name: "ack_audit_out", process: "adt_ob_proc", type: "file", outfile: "ack_audit.log" },
      { name: "legacy_ord_out", process: "adt_ob_proc", type: "file", outfile: "legacy_orders.txt" },
    ],
    dests: [
      { name: "adt_to_rad", host: "localhost", port: 37101 },
      { name: "ord_to_rad", host: "localhost", port: 37102 },
    ],
  };
}

/** The ARGS of reg_adt_in's ADT_A11 `generate` proc: the destination it names. */
export const GEN_CANCEL_ARGS = "{DEST adt_archive}";

/**
 * How lab differs on the test root beyond the Variant knobs (kept apart so q12's prod-vs-test
 * difference of adthub stays what it was): lab_sys_out goes to the lab system's test box, and
 * ehr_results_out to the EHR without TLS.
 */
export interface LabEnv {
  labSysHost?: string;
  labSysPort: number;
  ehrTls: boolean;
}

export const LAB_PROD_ENV: LabEnv = { labSysPort: 7001, ehrTls: true };
export const LAB_TEST_ENV: LabEnv = {
  labSysHost: "labsys-test.example.org",
  labSysPort: 7002,
  ehrTls: false,
};

/** ehr_results_out's connection (a PDL client, TLS on prod) and its outbound retries. */
export const EHR_OUT = {
  host: "ehr.example.org",
  port: 7500,
  pdl: "mlp_tcp.pdl",
  pdlType: "tcp-client",
  tlsMode: "ClientAuth",
  retries: 5,
  interval: 30,
};

function ehrOutExtra(env: LabEnv): ThreadSpec["extra"] {
  return {
    PROTOCOL: kl({
      HOST: q(EHR_OUT.host),
      ISSERVER: "0",
      IS_SSL: env.ehrTls ? "1" : "0",
      LOCAL_IP: q(""),
      MODE: q(env.ehrTls ? EHR_OUT.tlsMode : ""),
      PDLNAME: EHR_OUT.pdl,
      PDLTYPE: EHR_OUT.pdlType,
      PORT: String(EHR_OUT.port),
      RECONNECT: "1",
      TYPE: "pdl-tcpip",
    }),
    SENDDATACTRL: kl({
      FAILPROCS: tps(),
      FORWARDTHREAD: q(""),
      HOLDMSGS: "0",
      INTERVAL: String(EHR_OUT.interval),
      OKPROCS: tps(),
      PREWRITEPROCS: tps(),
      RETRIES: String(EHR_OUT.retries),
    }),
  };
}

export function lab(v: Variant, env: LabEnv = LAB_PROD_ENV): SiteModel {
  const oru: RouteSpec = {
    trxid: "ORU_R01",
    details: [{ type: "xlate", dest: ["ehr_results_out"], xlate: "oru_to_ehr.xlt", pre: ["tps_flag_abn"] }],
  };
  if (v.labResultsCopy) oru.details.push({ type: "raw", dest: ["results_copy_out"] });
  const threads: ThreadSpec[] = [
    {
      name: "lab_adt_in",
      process: "lab_proc",
      type: "tcpip",
      isServer: true,
      port: 36001,
      smatIn: "lab_adt_in",
      routes: [
        { trxid: "ADT_A01", details: [{ type: "xlate", dest: ["lab_sys_out"], xlate: "lab_adt.xlt" }] },
        { trxid: "ADT_A08", details: [{ type: "raw", dest: ["lab_sys_out"], enabled: v.labA08Enabled }] },
        { trxid: "ADT_A03", details: [{ type: "raw", dest: ["lab_sys_out"] }] },
      ],
    },
    {
      name: "lab_results_in",
      process: "lab_proc",
      type: "pdl-tcpip",
      isServer: true,
      port: 36110,
      smatIn: "lab_results_in",
      routes: [oru],
    },
    {
      name: "lab_sys_out",
      process: "lab_ob_proc",
      type: "tcpip",
      host: env.labSysHost ?? v.labSysHost,
      port: env.labSysPort,
      smatOut: "lab_sys_out",
    },
    {
      name: "ehr_results_out",
      process: "lab_ob_proc",
      type: "pdl-tcpip",
      host: EHR_OUT.host,
      port: EHR_OUT.port,
      extra: ehrOutExtra(env),
    },
  ];
  if (v.labResultsCopy) {
    threads.push({ name: "results_copy_out", process: "lab_ob_proc", type: "file", outfile: "results.txt" });
  }
  return {
    name: "lab",
    style: "ide",
    description: "Laboratory",
    processes: ["lab_proc", "lab_ob_proc"],
    threads,
    dests: [],
  };
}

/** ris_adt_out's port in rad's saved versions: 1.2 moved it, the live file is a rollback to 1.1. */
export const RAD_VERSIONS = [{ risAdtPort: 7710 }, { risAdtPort: 7720 }];

export function rad(risAdtPort = RAD_VERSIONS[0].risAdtPort): SiteModel {
  return {
    name: "rad",
    style: "ide",
    description: "Radiology",
    processes: ["rad_proc"],
    threads: [
      {
        name: "rad_adt_in",
        process: "rad_proc",
        type: "tcpip",
        isServer: true,
        port: 37001,
        icl: 37101,
        routes: [
          { trxid: "ADT_A01", details: [{ type: "raw", dest: ["pacs_adt_out", "ris_adt_out"] }] },
          {
            trxid: "ADT_A08",
            details: [
              { type: "raw", dest: ["pacs_adt_out"], enabled: false },
              { type: "raw", dest: ["ris_adt_out"] },
            ],
          },
        ],
      },
      {
        name: "rad_orders_in",
        process: "rad_proc",
        type: "tcpip",
        isServer: true,
        port: 37002,
        icl: 37102,
        routes: [{
          trxid: "ORM_O01",
          details: [{ type: "xlate", dest: ["ris_orders_out"], xlate: "orm_to_ris.xlt" }],
        }],
      },
      { name: "pacs_adt_out", process: "rad_proc", type: "tcpip", host: "pacs.example.org", port: 7700 },
      { name: "ris_adt_out", process: "rad_proc", type: "tcpip", host: "ris.example.org", port: risAdtPort },
      { name: "ris_orders_out", process: "rad_proc", type: "tcpip", host: "ris.example.org", port: 7711 },
    ],
    dests: [],
  };
}

export function pharmbill(): SiteModel {
  return {
    name: "pharmbill",
    style: "tcl",
    description: "Pharmacy and billing (legacy)",
    processes: ["bill_proc"],
    threads: [
      {
        name: "bill_in",
        process: "bill_proc",
        type: "tcpip",
        isServer: true,
        port: 36110,
        smatIn: "bill_in",
        routes: [
          {
            trxid: "DFT_P03",
            details: [{ type: "raw", dest: ["bill_out"], procs: ["tps_fin_class"] }],
          },
          { trxid: "ADT_A08", details: [{ type: "raw", dest: ["pharm_adt_out"] }] },
        ],
      },
      { name: "bill_out", process: "bill_proc", type: "file", outfile: "bill.txt" },
      { name: "pharm_adt_out", process: "bill_proc", type: "tcpip", host: "localhost", port: 36120 },
    ],
    dests: [],
  };
}

/** The prod root's sites, and the test root's (adthub and lab only). */
export function prodSites(v: Variant = PROD): SiteModel[] {
  return [adthub(v), lab(v), rad(), pharmbill()];
}

export function testSites(): SiteModel[] {
  return [adthub(TEST), lab(TEST, LAB_TEST_ENV)];
}

/**
 * The NetConfig records of a site. bill_in's DFT_P03 proc takes ARGS naming the table
 * (the writer's route details carry no ARGS, so that detail is patched in the written text).
 */
export function siteRecords(site: SiteModel): Record3[] {
  return [
    ...site.processes.map(processRecord),
    ...site.threads.map(protocolRecord),
    ...site.dests.map((d) => destinationRecord(d.name, d.host, d.port)),
  ];
}
