package server

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIDoc is the OpenAPI 3.1 document of every /api route, written by
// server/openapi/generate.py; TestOpenAPICoversEveryRoute holds it to the
// router.
//
//go:embed openapi/openapi.json
var openAPIDoc []byte

func serveOpenAPI(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/json", openAPIDoc)
}
