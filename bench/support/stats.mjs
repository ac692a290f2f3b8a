// The statistics the benches report.

/** The middle value of `values`; of an even count, the upper of the two middle ones. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The nearest-rank percentile: the value at rank ⌈p/100 · n⌉ of `sorted` (ascending). */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
