import autocannon from "autocannon";
const [url, seconds] = process.argv.slice(2);
const r = await autocannon({ url, connections: 16, duration: Number(seconds), method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic " + Buffer.from("demo-backend:demo-backend-secret").toString("base64") },
  body: "grant_type=client_credentials" });
console.log("rps", Math.round(r.requests.average), "non2xx", r.non2xx, "p99", r.latency.p99);
