/**
 * What a run shows while it runs, on the engine that gets every sample (the master of a
 * distributed run, or the one engine of a local run): the Prometheus endpoint and the live line,
 * both fed by one {@link org.dsload.live.LiveMetrics} that {@link org.dsload.live.LiveListener}
 * (added to the plan's copy by the runner) fills from the sample events, beside what the engines
 * record in the run folder: their generator figures ({@link org.dsload.live.GeneratorFiles}) and the
 * servers' own gauges ({@link org.dsload.live.ServerGaugeFiles}).
 */
package org.dsload.live;
