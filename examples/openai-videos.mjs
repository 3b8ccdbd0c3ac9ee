// The official openai SDK against the gateway: create a video, wait for it, download it.
// Run it from the repository (it has the openai package): node examples/openai-videos.mjs
// It reads API_KEY (the banner's export, or the tour's) and GATEWAY_URL (default http://localhost:3000),
// and writes the video to a new temporary directory, never into the working directory.
import OpenAI from 'openai';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.API_KEY) throw new Error('API_KEY is not set: export it as the start banner or the README tour shows');
const client = new OpenAI({
  apiKey: process.env.API_KEY,
  baseURL: `${process.env.GATEWAY_URL ?? 'http://localhost:3000'}/v1`,
});
let video = await client.videos.create({
  model: 'vdq3',
  prompt: 'A cat plays in a sunny garden.',
  seconds: '8',
  size: '1280x720',
  input_reference: { image_url: 'https://example.com/cat.png' },
});
while (video.status === 'queued' || video.status === 'in_progress') {
  await new Promise((r) => setTimeout(r, 2000));
  video = await client.videos.retrieve(video.id);
}
if (video.status !== 'completed') throw new Error(`${video.id} ${video.status}: ${video.error?.message}`);
const file = join(await mkdtemp(join(tmpdir(), 'gateway-video-')), 'cat.mp4');
await writeFile(file, Buffer.from(await (await client.videos.downloadContent(video.id)).arrayBuffer()));
console.log(JSON.stringify({ id: video.id, status: video.status, file }));
