/**
 * A thread's operational settings in words (tools/engine/netconfig/operations.ts), from NetConfig
 * records written by hand in the shapes of research/cloverleaf.md 1.6-1.11.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseNetConfig } from "../../../tools/engine/netconfig/mod.ts";
import { operationsOf } from "../../../tools/engine/netconfig/operations.ts";

function ops(record: string): Record<string, string> {
  const nc = parseNetConfig(record);
  return Object.fromEntries(operationsOf(nc.protocols[0], "/hci/lab"));
}

Deno.test("operations: a TLS client with replies, IN_REPLY procs, reply routes and retries", () => {
  const o = ops(`protocol lab_out {
    { PROCESSNAME lab_proc }
    { PROTOCOL { { TYPE pdl-tcpip } { HOST lis.example.org } { PORT 7020 } { ISSERVER 0 }
      { PDLNAME mlp_tcp.pdl } { PDLTYPE tcp-client } { IS_SSL 1 } { MODE ClientAuth } { TCP_CONNECTION_TIMEOUT 30 } } }
    { REPLYCONTROL { { OBRESEND 1 } { REPLYGEN { { TYPE none } } } { TIMEOUT 45 } { WAIT 1 } } }
    { SMS { { IN_REPLY { { ARGS {{}} } { PROCS {tps_check_ack} } { PROCSCONTROL {} } } }
            { OUT_DATA { { ARGS {{} {}} } { PROCS {tps_a tps_b} } { PROCSCONTROL {ENABLED DISABLED} } } } } }
    { REPLYXLATE { { { TRXID ACK } { ROUTE_DETAILS { { { TYPE raw } { DEST ack_log } } } } } } }
    { SENDDATACTRL { { RETRIES 3 } { INTERVAL 20 } { FORWARDTHREAD lab_err }
      { FAILPROCS { { ARGS {{}} } { PROCS {tps_page_oncall} } { PROCSCONTROL {} } } } } }
    { SAVEMSGS { { INSAVE 0 } { OUTSAVE 1 } { OUTFILE lab_out } } }
}
`);
  assertEquals(o, {
    connection:
      "pdl-tcpip, connects to lis.example.org:7020; PDL mlp_tcp.pdl (tcp-client); connect timeout 30 s",
    tls: "on, mode ClientAuth",
    replies:
      "reply timeout 45 s; waits for the reply: yes; resends after a timeout: yes; generated reply none; " +
      "IN_REPLY procs tps_check_ack; 1 reply route (REPLYXLATE)",
    delivery: "retries 3; every 20 s; forwards to lab_err when it gives up; on failure tps_page_oncall",
    "data procs": "OUT_DATA tps_a tps_b (disabled)",
    smat: "outbound to /hci/lab/exec/processes/lab_proc/lab_out",
  });
});

Deno.test("operations: files and filesets resolve relative names under the process folder", () => {
  const file = ops(`protocol batch_in {
    { PROCESSNAME batch }
    { PROTOCOL { { TYPE file } { INFILE in/adt.txt } { INFORMAT nl } { OUTFILE /var/out/x.txt } { OUTAPPEND 1 } } }
    { ENCODING UTF-8 }
}
`);
  assertEquals(
    file.connection,
    "file; reads /hci/lab/exec/processes/batch/in/adt.txt (nl); writes /var/out/x.txt (appends)",
  );
  assertEquals(file.encoding, "UTF-8");
  assertEquals(file.smat, "not saved");
  const ftp = ops(`protocol claims_out {
    { PROCESSNAME claims }
    { PROTOCOL { { TYPE fileset } { MODE ftp } { OBDIR /outbound/837 } { FTPHOST ftp.payer.example } { FTPPORT 21 } } }
}
`);
  assertEquals(ftp.connection, "fileset (ftp); writes /outbound/837; host ftp.payer.example:21");
  const listener = ops(`protocol adt_in {
    { PROTOCOL { { TYPE tcpip } { PORT 36110 } { ISSERVER 1 } { MLP_PREFIX \\x0b } } }
}
`);
  assertEquals(listener.connection, "tcpip, listens on port 36110; MLLP framing");
  assertEquals(listener.tls, "off (plain TCP)");
});

Deno.test("operations: a long reply timeout reads in hours too; an OBRESEND count is kept", () => {
  const o = ops(`protocol lab_adt_out {
    { PROCESSNAME p }
    { PROTOCOL { { TYPE tcpip } { HOST localhost } { PORT 36001 } { ISSERVER 0 } } }
    { REPLYCONTROL { { OBRESEND 3 } { TIMEOUT 30000 } { WAIT 1 } } }
    { SENDDATACTRL { { RETRIES -1 } { INTERVAL 600 } } }
}
`);
  assertEquals(
    o.replies,
    "reply timeout 30000 s (8 h 20 min); waits for the reply: yes; resends after a timeout: yes (OBRESEND 3)",
  );
  assertEquals(o.delivery, "retries for ever; every 600 s (10 min)");
  const short = ops(`protocol x {
    { REPLYCONTROL { { OBRESEND 0 } { TIMEOUT 90 } } }
}
`);
  assertEquals(short.replies, "reply timeout 90 s; resends after a timeout: no");
});

Deno.test("operations: a thread that does not wait for replies says so once, no timeout or resend", () => {
  const o = ops(`protocol ehr_out {
    { PROCESSNAME p }
    { PROTOCOL { { TYPE tcpip } { HOST ehr } { PORT 7500 } { ISSERVER 0 } } }
    { REPLYCONTROL { { OBRESEND 1 } { REPLYGEN { { TYPE none } } } { TIMEOUT -1 } { WAIT 0 } } }
}
`);
  assertEquals(o.replies, "waits for the reply: no (so no reply timeout or resend); generated reply none");
});
