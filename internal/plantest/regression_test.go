package plantest_test

// Regression tests printed by TestPlanOracle, each a model before a step and
// the model after it.
