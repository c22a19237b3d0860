//! Exact values for the Monte Carlo studies (filled in below).
