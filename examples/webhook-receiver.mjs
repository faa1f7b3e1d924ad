// The quickstart's webhook receiver (README, "Quickstart"): checks each message's Standard Webhooks signature
// on the raw body before trusting it, then prints the event.
//   WEBHOOK_SECRET=whsec_... node examples/webhook-receiver.mjs      (RECEIVER_PORT, default 4242)
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

if (!process.env.WEBHOOK_SECRET) throw new Error("Set WEBHOOK_SECRET to the endpoint's secret (whsec_...)");
const webhook = new Webhook(process.env.WEBHOOK_SECRET);
const port = Number(process.env.RECEIVER_PORT ?? 4242);

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    try {
      // Throws unless a signature over the id, timestamp and these exact bytes matches and the time is recent.
      const event = webhook.verify(Buffer.concat(chunks).toString('utf8'), req.headers);
      const object = event.data?.object ?? {};
      console.log(`verified ${event.type} ${event.id}: ${object.object ?? ''} ${object.id ?? ''} ${object.name ?? ''}`);
      res.writeHead(204).end();
    } catch (error) {
      console.log(`rejected a message: ${error.message}`);
      res.writeHead(400).end();
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`Receiving webhooks on http://127.0.0.1:${port}/webhooks`));
