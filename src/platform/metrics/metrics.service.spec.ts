import { MetricsService } from './metrics.service';

describe('MetricsService: tasks in flight', () => {
  it('counts when scraped, and keeps the last count when counting fails (the scrape still answers)', async () => {
    const metrics = new MetricsService();
    let count: () => Promise<number> = () => Promise.resolve(7);
    metrics.countTasksInFlightWith(() => count());
    expect(await metrics.registry.getSingleMetricAsString('gateway_tasks_in_flight')).toContain(
      'gateway_tasks_in_flight 7',
    );
    count = () => Promise.reject(new Error('database unreachable'));
    await expect(metrics.registry.metrics()).resolves.toContain('gateway_tasks_in_flight 7');
  });
});
