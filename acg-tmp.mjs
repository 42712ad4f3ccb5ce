import autocannon from "autocannon";
const r = await autocannon({ url: process.argv[2], connections: 16, duration: Number(process.argv[3]) });
console.log("rps", Math.round(r.requests.average), "non2xx", r.non2xx, "p99", r.latency.p99, "bytes/req", Math.round(r.throughput.total / r.requests.total));
