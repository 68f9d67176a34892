import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Service as CloudRunService } from '@kubernetes-models/knative/serving.knative.dev/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

import { SERVER_ENTRY } from '../tools/lib/gate.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Every document of every YAML file in a folder. */
function documents(folder: string): { file: string; doc: Record<string, unknown> }[] {
  return readdirSync(join(here, folder))
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((name) =>
      parseAllDocuments(readFileSync(join(here, folder, name), 'utf8')).map((parsed) => ({
        file: `${folder}/${name}`,
        doc: parsed.toJS() as Record<string, unknown>,
      })),
    );
}

const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'serving.knative.dev/v1/Service': CloudRunService,
};

/** Cloud Run Jobs (run.googleapis.com/v1) have no published schema: their shape is checked by hand below. */
const isCloudRunJob = (doc: Record<string, unknown>) =>
  doc.apiVersion === 'run.googleapis.com/v1' && doc.kind === 'Job';

describe('the deployment files', () => {
  const all = [...documents('kubernetes'), ...documents('cloud-run')].filter(({ doc }) => !isCloudRunJob(doc));

  it.each(all.map(({ file, doc }) => [`${file}: ${String(doc.kind)}`, doc] as const))(
    '%s is valid against the Kubernetes schema',
    (_name, doc) => {
      const Model = models[`${String(doc.apiVersion)}/${String(doc.kind)}`];
      expect(Model, `no schema for ${String(doc.apiVersion)}/${String(doc.kind)}`).toBeDefined();
      expect(() => new (Model as new (data: unknown) => { validate(): void })(doc).validate()).not.toThrow();
    },
  );

  it('has every piece of a Kubernetes deployment, with probes on the gate’s own endpoints', () => {
    const kinds = documents('kubernetes').map(({ doc }) => doc.kind);
    expect(kinds.sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'PodDisruptionBudget',
      'Service',
    ]);
    const deployment = documents('kubernetes').find(
      ({ doc }) => doc.kind === 'Deployment' && (doc.metadata as { name: string }).name === 'norigin-docs',
    )?.doc as {
      spec: {
        template: {
          spec: {
            containers: {
              readinessProbe: { httpGet: { path: string } };
              livenessProbe: { httpGet: { path: string } };
            }[];
          };
        };
      };
    };
    const [gate] = deployment.spec.template.spec.containers;
    expect(gate?.readinessProbe.httpGet.path).toBe('/readyz');
    expect(gate?.livenessProbe.httpGet.path).toBe('/healthz');
  });

  it('runs the builder from its own image and the gates without one, on Kubernetes and as a Cloud Run Job', () => {
    const builder = documents('kubernetes').find(
      ({ doc }) => (doc.metadata as { name: string }).name === 'norigin-docs-builder',
    )?.doc as { spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } };
    expect(builder.spec.replicas).toBe(1);
    expect(builder.spec.template.spec.containers[0]?.image).toMatch(/norigin-docs-builder:/);
    const config = documents('kubernetes').find(({ doc }) => doc.kind === 'ConfigMap')?.doc as {
      data: Record<string, string>;
    };
    expect(config.data.SITE_RELEASES).toMatch(/^s3:\/\//);
    expect(config.data.SOURCES_BUILDER).toBeUndefined();
    const job = documents('cloud-run').find(({ doc }) => isCloudRunJob(doc))?.doc as {
      spec: { template: { spec: { template: { spec: { containers: { image: string; args: string[] }[] } } } } };
    };
    const [container] = job.spec.template.spec.template.spec.containers;
    expect(container?.image).toMatch(/norigin-docs-builder:/);
    expect(container?.args).toEqual(['--drain']);
  });

  it('catches a broken file (the validator is not a rubber stamp)', () => {
    const broken = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replicas: 'three' } };
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });
});

describe('how the gate is started', () => {
  const repository = join(here, '..');

  it('is the same in the image, the server’s start script and wherever the tools start it: its entry, no Node.js flags', () => {
    const lines = readFileSync(join(repository, 'Containerfile'), 'utf8').split('\n');
    const cmd = lines.filter((line) => line.startsWith('CMD ')).at(-1) ?? '';
    expect(JSON.parse(cmd.slice('CMD '.length))).toEqual(['node', SERVER_ENTRY.slice(repository.length + 1)]);
    const server = JSON.parse(readFileSync(join(repository, 'server', 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    expect(server.scripts.start).toBe('node dist/server.js');
  });

  it('gives the builder its own target, with the builder’s entry, before the runtime target', () => {
    const containerfile = readFileSync(join(repository, 'Containerfile'), 'utf8');
    const builder = containerfile.indexOf('FROM build AS builder');
    expect(builder).toBeGreaterThan(0);
    expect(builder).toBeLessThan(containerfile.indexOf('AS runtime'));
    expect(containerfile).toContain('ENTRYPOINT ["node", "server/dist/builder.js"]');
    // The runtime copies neither scripts/ nor the site's sources: it cannot build.
    const runtime = containerfile.slice(containerfile.indexOf('AS runtime'));
    expect(runtime).not.toMatch(/COPY (--from=build )?\/?(portal\/)?scripts/);
    expect(runtime).not.toMatch(/COPY \. \./);
  });
});
