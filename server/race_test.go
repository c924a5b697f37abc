//go:build race

package server

// raceDetector: the race detector makes sync.Pool drop what it is given at
// random, so allocation counts mean nothing under it.
const raceDetector = true
