"""Benchmarks (`slapbox bench ...`): they measure and print figures; nothing in the product imports them."""
