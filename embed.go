package main

import (
	"embed"
	"io/fs"
	"testing/fstest"
)

// dist is the Vite build of frontend/. Only frontend/dist/BUILD.txt is
// committed (Vite copies the same file from frontend/public, so a build
// leaves the tree clean); a plain `go build` before `make build` serves
// notBuilt instead of the app.
//
//go:embed all:frontend/dist
var dist embed.FS

// notBuilt is the page of a binary built without the web app.
const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><!--layerfix:head--><title>Layerfix</title></head>
<body><div id="root"></div><p>This Layerfix binary was built without its web app. The API works;
for the app, build it with <code>make build</code>.</p></body></html>
`

// frontendFS is the build's root (index.html, assets/...).
func frontendFS() fs.FS {
	sub, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern above guarantees the directory
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return fstest.MapFS{"index.html": {Data: []byte(notBuilt)}}
	}
	return sub
}
