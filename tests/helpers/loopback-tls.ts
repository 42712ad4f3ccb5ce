/**
 * A certificate for 127.0.0.1, ::1 and localhost (self-signed, valid 2020 to 2120; made for these tests, protecting
 * nothing), so that tests can run real https servers on the loopback where production rules demand https, and a way
 * to let this process's TLS clients trust it.
 */
import { getCACertificates, setDefaultCACertificates } from "node:tls";

export const LOOPBACK_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgJSdDnxnD2N0Wf57f
a/Bl8tDuBAnvNF3NpLV6cjYNjLShRANCAAStLtYQy8Isu/wvQbXoJ+ZefthEdPnC
T5lsK534SdezkzKrSvR5gjR5riKEplbHzUOIPXVrcTN+kNvwK1aAaUkm
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBhjCCAS2gAwIBAgIUfcQ+dpdaJOzyzWR6Y51K24UfB54wCgYIKoZIzj0EAwIw
ITEfMB0GA1UEAwwWT3B0aUdhdGUgdGVzdCBsb29wYmFjazAgFw0yMDAxMDEwMDAw
MDBaGA8yMTIwMDEwMTAwMDAwMFowITEfMB0GA1UEAwwWT3B0aUdhdGUgdGVzdCBs
b29wYmFjazBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABK0u1hDLwiy7/C9Btegn
5l5+2ER0+cJPmWwrnfhJ17OTMqtK9HmCNHmuIoSmVsfNQ4g9dWtxM36Q2/ArVoBp
SSajQTA/MCwGA1UdEQQlMCOHBH8AAAGHEAAAAAAAAAAAAAAAAAAAAAGCCWxvY2Fs
aG9zdDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIBra0/C3PWzY
KPT9l3h2daVs1YUU8txSxhJ3eeW2aoq4AiAeVwfy2R8XdryCZsfuuLlqyzSjNjk5
emOIIoiZd4oCHA==
-----END CERTIFICATE-----
`,
};

/** Trusts the certificate, in addition to the usual ones, until the returned function is called. */
export function trustLoopbackCertificate(): () => void {
  const before = getCACertificates("default");
  setDefaultCACertificates([...before, LOOPBACK_TLS.cert]);
  return () => setDefaultCACertificates(before);
}
