// The severity model: one verdict class per rollout (trained, trained with warnings, masked, or
// pending while unknown) with reasons in words, the run's policy model, and the shared palette.
export * from "./classify";
export * from "./expert-fallback";
export * from "./failed-call";
export * from "./palette";
export * from "./policy-model";
export * from "./reasons";
export * from "./record-reasons";
export * from "./vocabulary";
export * from "./summary-sentences";
export * from "./trainer-differs";
