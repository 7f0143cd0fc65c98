//! Statistics over repetitions and the price/performance value analysis.
