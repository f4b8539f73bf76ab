import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 description of every JSON endpoint. Kept true by
/// `scripts/openapi-test.sh` (openapi-spec-validator, and schemathesis against a live server).
struct OpenAPIRoutes {
    func register(on router: Router<some RequestContext>) {
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json))
            )
        }
    }
}

/// The document itself, in the binary (a deployment copies only the executable).
enum OpenAPIDocument {
    static let json = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "Portvakt",
  "version": "1.0.0",
  "description": "Login and access control for the peer-mentor app: the OAuth endpoints, BankID orders, device keys, step-up, the app's /v1 API and the administrators' member-sync routes. Browser pages (authorize, callbacks, password form, end-session) are not JSON and not listed."
 },
 "servers": [
  {
   "url": "/"
  }
 ],
 "components": {
  "schemas": {
   "Error": {
    "anyOf": [
     {
      "type": "object",
      "properties": {
       "error": {
        "type": "string"
       },
       "error_description": {
        "type": "string"
       },
       "message_id": {
        "type": "string"
       }
      },
      "required": [
       "error"
      ]
     },
     {
      "type": "object",
      "properties": {
       "error": {
        "type": "object",
        "properties": {
         "message": {
          "type": "string"
         }
        },
        "required": []
       }
      },
      "required": [
       "error"
      ]
     }
    ]
   },
   "Token": {
    "type": "object",
    "properties": {
     "access_token": {
      "type": "string"
     },
     "token_type": {
      "type": "string",
      "enum": [
       "Bearer",
       "DPoP"
      ]
     },
     "expires_in": {
      "type": "integer"
     },
     "refresh_token": {
      "type": "string"
     },
     "id_token": {
      "type": "string"
     },
     "scope": {
      "type": "string"
     }
    },
    "required": [
     "access_token",
     "token_type",
     "expires_in",
     "refresh_token",
     "scope"
    ]
   },
   "StepUpToken": {
    "type": "object",
    "properties": {
     "access_token": {
      "type": "string"
     },
     "token_type": {
      "type": "string"
     },
     "expires_in": {
      "type": "integer"
     },
     "action": {
      "type": "string"
     }
    },
    "required": [
     "access_token",
     "token_type",
     "expires_in",
     "action"
    ]
   },
   "Discovery": {
    "type": "object",
    "properties": {
     "issuer": {
      "type": "string"
     },
     "authorization_endpoint": {
      "type": "string"
     },
     "token_endpoint": {
      "type": "string"
     },
     "userinfo_endpoint": {
      "type": "string"
     },
     "revocation_endpoint": {
      "type": "string"
     },
     "end_session_endpoint": {
      "type": "string"
     },
     "jwks_uri": {
      "type": "string"
     }
    },
    "required": [
     "issuer",
     "authorization_endpoint",
     "token_endpoint",
     "jwks_uri"
    ]
   },
   "JWKS": {
    "type": "object",
    "properties": {
     "keys": {
      "type": "array",
      "items": {
       "type": "object"
      }
     }
    },
    "required": [
     "keys"
    ]
   },
   "Userinfo": {
    "type": "object",
    "properties": {
     "sub": {
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "email": {
      "type": "string"
     },
     "org": {
      "type": "array",
      "items": {
       "type": "object"
      }
     }
    },
    "required": [
     "sub"
    ]
   },
   "OrderStartRequest": {
    "type": "object",
    "properties": {
     "client_id": {
      "type": "string"
     },
     "redirect_uri": {
      "type": "string"
     },
     "code_challenge": {
      "type": "string"
     },
     "code_challenge_method": {
      "type": "string"
     },
     "returnUrl": {
      "type": "string"
     },
     "scope": {
      "type": "string"
     },
     "nonce": {
      "type": "string"
     },
     "ui_locales": {
      "type": "string"
     },
     "dpop_jkt": {
      "type": "string",
      "description": "RFC 9449 §10: the thumbprint of the DPoP key that alone may redeem the code"
     }
    },
    "required": [
     "client_id",
     "redirect_uri",
     "code_challenge"
    ]
   },
   "OrderStarted": {
    "type": "object",
    "properties": {
     "sessionId": {
      "type": "string"
     },
     "autoStartToken": {
      "type": "string"
     },
     "launchURL": {
      "type": "string"
     },
     "qrCodeUri": {
      "type": "string"
     },
     "expiresAt": {
      "type": "string"
     },
     "expiresIn": {
      "type": "integer"
     },
     "pollInterval": {
      "type": "integer"
     }
    },
    "required": [
     "sessionId",
     "autoStartToken",
     "launchURL",
     "qrCodeUri",
     "expiresAt",
     "expiresIn",
     "pollInterval"
    ]
   },
   "OrderHandle": {
    "type": "object",
    "properties": {
     "sessionId": {
      "type": "string",
      "maxLength": 200
     }
    },
    "required": [
     "sessionId"
    ]
   },
   "OrderStatus": {
    "type": "object",
    "properties": {
     "status": {
      "type": "string",
      "enum": [
       "pending",
       "failed",
       "complete"
      ]
     },
     "hintCode": {
      "type": "string"
     },
     "messageId": {
      "type": "string"
     },
     "message": {
      "type": "string"
     },
     "error": {
      "type": "string"
     },
     "code": {
      "type": "string"
     },
     "expiresIn": {
      "type": "integer"
     }
    },
    "required": [
     "status"
    ]
   },
   "QRFrame": {
    "type": "object",
    "properties": {
     "qrData": {
      "type": "string"
     },
     "seconds": {
      "type": "integer"
     },
     "svg": {
      "type": "string"
     },
     "text": {
      "type": "string"
     }
    },
    "required": [
     "qrData",
     "seconds"
    ]
   },
   "PageStatus": {
    "type": "object",
    "properties": {
     "message": {
      "type": "string"
     },
     "redirect": {
      "type": "string"
     }
    },
    "required": []
   },
   "Device": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "name": {
      "type": "string"
     },
     "platform": {
      "type": "string"
     },
     "biometric_kind": {
      "type": "string"
     },
     "created_at": {
      "type": "string"
     },
     "last_used_at": {
      "type": "string"
     },
     "current": {
      "type": "boolean"
     }
    },
    "required": [
     "id",
     "name",
     "platform",
     "biometric_kind",
     "created_at",
     "current"
    ]
   },
   "NewDevice": {
    "type": "object",
    "properties": {
     "name": {
      "type": "string"
     },
     "platform": {
      "type": "string",
      "enum": [
       "ios",
       "android"
      ]
     },
     "biometric_kind": {
      "type": "string",
      "enum": [
       "face",
       "fingerprint"
      ]
     },
     "public_key": {
      "type": "object",
      "properties": {
       "kty": {
        "type": "string"
       },
       "crv": {
        "type": "string"
       },
       "x": {
        "type": "string"
       },
       "y": {
        "type": "string"
       }
      },
      "required": [
       "kty",
       "crv",
       "x",
       "y"
      ]
     }
    },
    "required": [
     "name",
     "platform",
     "biometric_kind",
     "public_key"
    ]
   },
   "ChallengeRequest": {
    "type": "object",
    "properties": {
     "purpose": {
      "type": "string",
      "enum": [
       "unlock",
       "step-up"
      ]
     },
     "action": {
      "type": "string"
     }
    },
    "required": [
     "purpose"
    ]
   },
   "Challenge": {
    "type": "object",
    "properties": {
     "challenge": {
      "type": "string"
     },
     "device_id": {
      "type": "string"
     },
     "purpose": {
      "type": "string"
     },
     "action": {
      "type": "string"
     },
     "audience": {
      "type": "string"
     },
     "expires_at": {
      "type": "string"
     },
     "expires_in": {
      "type": "integer"
     }
    },
    "required": [
     "challenge",
     "device_id",
     "purpose",
     "audience",
     "expires_at",
     "expires_in"
    ]
   },
   "Me": {
    "type": "object",
    "properties": {
     "user": {
      "type": "object",
      "properties": {
       "id": {
        "type": "string"
       },
       "name": {
        "type": "string"
       },
       "email": {
        "type": "string"
       }
      },
      "required": [
       "id",
       "name"
      ]
     },
     "organisations": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "id": {
         "type": "string"
        },
        "slug": {
         "type": "string"
        },
        "name": {
         "type": "string"
        },
        "roles": {
         "type": "array",
         "items": {
          "type": "string"
         }
        }
       },
       "required": [
        "id",
        "slug",
        "name",
        "roles"
       ]
      }
     },
     "home_screen": {
      "type": "string"
     },
     "session": {
      "type": "object",
      "properties": {
       "amr": {
        "type": "array",
        "items": {
         "type": "string"
        }
       },
       "auth_time": {
        "type": "integer"
       },
       "device_id": {
        "type": "string"
       }
      },
      "required": [
       "amr",
       "auth_time"
      ]
     },
     "notices": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "message_id": {
         "type": "string"
        },
        "message": {
         "type": "string"
        }
       },
       "required": []
      }
     }
    },
    "required": [
     "user",
     "organisations",
     "home_screen",
     "session",
     "notices"
    ]
   },
   "NewActivity": {
    "type": "object",
    "properties": {
     "organisation": {
      "type": "string"
     },
     "kind": {
      "type": "string"
     },
     "occurred_at": {
      "type": "string"
     },
     "duration_minutes": {
      "type": "integer"
     },
     "note": {
      "type": "string"
     },
     "contact_id": {
      "type": "string"
     }
    },
    "required": [
     "organisation",
     "kind",
     "occurred_at",
     "duration_minutes"
    ]
   },
   "Activity": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "organisation": {
      "type": "string"
     },
     "user_id": {
      "type": "string"
     },
     "kind": {
      "type": "string"
     },
     "occurred_at": {
      "type": "string"
     },
     "duration_minutes": {
      "type": "integer"
     },
     "note": {
      "type": "string"
     },
     "contact_id": {
      "type": "string"
     },
     "created_at": {
      "type": "string"
     }
    },
    "required": [
     "id",
     "organisation",
     "user_id",
     "kind",
     "occurred_at",
     "duration_minutes",
     "created_at"
    ]
   },
   "ContactDetails": {
    "type": "object",
    "properties": {
     "phone": {
      "type": "string"
     },
     "address": {
      "type": "string"
     },
     "note": {
      "type": "string"
     }
    },
    "required": []
   },
   "NewContact": {
    "type": "object",
    "properties": {
     "organisation": {
      "type": "string"
     },
     "display_name": {
      "type": "string"
     },
     "assigned_to": {
      "type": "string"
     },
     "details": {
      "$ref": "#/components/schemas/ContactDetails"
     }
    },
    "required": [
     "organisation",
     "display_name",
     "details"
    ]
   },
   "Contact": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "organisation": {
      "type": "string"
     },
     "display_name": {
      "type": "string"
     },
     "assigned_to": {
      "type": "string"
     },
     "details": {
      "$ref": "#/components/schemas/ContactDetails"
     }
    },
    "required": [
     "id",
     "organisation",
     "display_name"
    ]
   },
   "NewExpense": {
    "type": "object",
    "properties": {
     "organisation": {
      "type": "string"
     },
     "amount_ore": {
      "type": "integer"
     },
     "description": {
      "type": "string"
     }
    },
    "required": [
     "organisation",
     "amount_ore",
     "description"
    ]
   },
   "Expense": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "organisation": {
      "type": "string"
     },
     "user_id": {
      "type": "string"
     },
     "amount_ore": {
      "type": "integer"
     },
     "description": {
      "type": "string"
     },
     "created_at": {
      "type": "string"
     }
    },
    "required": [
     "id",
     "organisation",
     "user_id",
     "amount_ore",
     "description",
     "created_at"
    ]
   },
   "Member": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "user_id": {
      "type": "string"
     },
     "full_name": {
      "type": "string"
     },
     "role": {
      "type": "string"
     },
     "email": {
      "type": "string"
     },
     "phone": {
      "type": "string"
     },
     "personnummer_on_file": {
      "type": "boolean"
     }
    },
    "required": [
     "id",
     "full_name",
     "role",
     "personnummer_on_file"
    ]
   },
   "SyncEntry": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "occurred_at": {
      "type": "string"
     },
     "source": {
      "type": "string"
     },
     "outcome": {
      "type": "string"
     },
     "status": {
      "type": "string"
     },
     "member_id": {
      "type": "string"
     },
     "member_name": {
      "type": "string"
     },
     "member_personnummer": {
      "type": "string"
     },
     "login_personnummer": {
      "type": "string"
     },
     "resolution": {
      "type": "string"
     }
    },
    "required": [
     "id",
     "occurred_at",
     "source",
     "outcome"
    ]
   },
   "OutboxMessage": {
    "type": "object",
    "properties": {
     "id": {
      "type": "string"
     },
     "member_id": {
      "type": "string"
     },
     "event": {
      "type": "string"
     },
     "status": {
      "type": "string"
     },
     "attempts": {
      "type": "integer"
     },
     "last_error": {
      "type": "string"
     },
     "created_at": {
      "type": "string"
     },
     "delivered_at": {
      "type": "string"
     },
     "next_attempt_at": {
      "type": "string"
     }
    },
    "required": [
     "id",
     "event",
     "status",
     "attempts",
     "created_at"
    ]
   },
   "Health": {
    "type": "object",
    "properties": {
     "status": {
      "type": "string"
     }
    },
    "required": [
     "status"
    ]
   }
  },
  "securitySchemes": {
   "bearer": {
    "type": "http",
    "scheme": "bearer",
    "bearerFormat": "JWT"
   },
   "dpop": {
    "type": "http",
    "scheme": "DPoP",
    "description": "RFC 9449: a token with cnf.jkt, with a DPoP proof header (ES256, ath, the server's nonce) signed by that key"
   }
  }
 },
 "paths": {
  "/.well-known/openid-configuration": {
   "get": {
    "summary": "OpenID Connect discovery",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Discovery"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/.well-known/jwks.json": {
   "get": {
    "summary": "Token signing keys",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/jwk-set+json": {
        "schema": {
         "$ref": "#/components/schemas/JWKS"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/health/live": {
   "get": {
    "summary": "The process answers",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Health"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/health/ready": {
   "get": {
    "summary": "Migrated, the database answers, not shutting down",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Health"
        }
       }
      }
     },
     "503": {
      "description": "Not ready",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Health"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/oauth/token": {
   "post": {
    "summary": "Token endpoint: authorization_code (PKCE), refresh_token (rotation), jwt-bearer (device unlock)",
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "grant_type": {
          "type": "string",
          "enum": [
           "authorization_code",
           "refresh_token",
           "urn:ietf:params:oauth:grant-type:jwt-bearer"
          ]
         },
         "client_id": {
          "type": "string"
         },
         "code": {
          "type": "string"
         },
         "redirect_uri": {
          "type": "string"
         },
         "code_verifier": {
          "type": "string"
         },
         "refresh_token": {
          "type": "string"
         },
         "assertion": {
          "type": "string"
         }
        },
        "required": [
         "grant_type",
         "client_id"
        ]
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Token"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/oauth/revoke": {
   "post": {
    "summary": "RFC 7009 revocation",
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "token": {
          "type": "string"
         },
         "client_id": {
          "type": "string"
         },
         "token_type_hint": {
          "type": "string"
         }
        },
        "required": [
         "token",
         "client_id"
        ]
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "Revoked, or unknown"
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/oauth/par": {
   "post": {
    "summary": "RFC 9126 pushed authorization request: the /oauth/authorize parameters, stored 60 s; a DPoP proof binds the code",
    "requestBody": {
     "required": true,
     "content": {
      "application/x-www-form-urlencoded": {
       "schema": {
        "type": "object",
        "properties": {
         "client_id": {
          "type": "string"
         },
         "redirect_uri": {
          "type": "string"
         },
         "response_type": {
          "type": "string"
         },
         "code_challenge": {
          "type": "string"
         },
         "code_challenge_method": {
          "type": "string"
         },
         "state": {
          "type": "string"
         },
         "nonce": {
          "type": "string"
         },
         "scope": {
          "type": "string"
         },
         "idp_hint": {
          "type": "string"
         },
         "dpop_jkt": {
          "type": "string"
         }
        },
        "required": [
         "client_id"
        ]
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Stored",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "request_uri": {
           "type": "string"
          },
          "expires_in": {
           "type": "integer"
          }
         },
         "required": [
          "request_uri",
          "expires_in"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   }
  },
  "/oauth/userinfo": {
   "get": {
    "summary": "OpenID Connect userinfo",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Userinfo"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/bankid/orders": {
   "post": {
    "summary": "Start a BankID order (app on this device or QR)",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/OrderStartRequest"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Started",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/OrderStarted"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/bankid/orders/collect": {
   "post": {
    "summary": "The order's status; a code when complete",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/OrderHandle"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/OrderStatus"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/bankid/orders/cancel": {
   "post": {
    "summary": "Cancel the order",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/OrderHandle"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/OrderStatus"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/bankid/orders/qr": {
   "post": {
    "summary": "The current animated QR frame",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "sessionId": {
          "type": "string"
         },
         "format": {
          "type": "string",
          "enum": [
           "data",
           "svg",
           "text"
          ]
         }
        },
        "required": [
         "sessionId"
        ]
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/QRFrame"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/oauth/bankid/other-device/collect": {
   "post": {
    "summary": "The other-device page's poll",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/OrderHandle"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/PageStatus"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/oauth/bankid/other-device/cancel": {
   "post": {
    "summary": "The other-device page's cancel",
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/OrderHandle"
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/PageStatus"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/devices": {
   "get": {
    "summary": "The caller's biometric devices",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "devices": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Device"
           }
          }
         },
         "required": [
          "devices"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Register a device key (after a fresh BankID, Vipps or password login)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewDevice"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Registered",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Device"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/devices/{id}": {
   "delete": {
    "summary": "Remove a device and end the sessions it unlocked",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      }
     }
    ],
    "responses": {
     "204": {
      "description": "Removed"
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/devices/{id}/challenges": {
   "post": {
    "summary": "A challenge for an unlock (no token) or a step-up (the owner's token)",
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/ChallengeRequest"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Issued",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Challenge"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/step-up": {
   "post": {
    "summary": "A short-lived elevated token for one action, for a signed step-up challenge",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "assertion": {
          "type": "string"
         }
        },
        "required": [
         "assertion"
        ]
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/StepUpToken"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/me": {
   "get": {
    "summary": "The caller, organisations and roles, home screen",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "ui_locales",
      "in": "query",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Me"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/activities": {
   "get": {
    "summary": "Activities the caller may see",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "activities": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Activity"
           }
          }
         },
         "required": [
          "activities"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Log an activity (idempotent by key)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "Idempotency-Key",
      "in": "header",
      "required": true,
      "schema": {
       "type": "string",
       "minLength": 1,
       "maxLength": 128
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewActivity"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Logged",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Activity"
        }
       }
      },
      "headers": {
       "Idempotent-Replayed": {
        "description": "true when this answers an earlier request with the same key",
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/contacts": {
   "get": {
    "summary": "Contacts the caller may see, names only",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "contacts": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Contact"
           }
          }
         },
         "required": [
          "contacts"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Create a contact (coordinators, administrators)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewContact"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Created",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Contact"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/contacts/{id}": {
   "get": {
    "summary": "A contact's details (needs a contacts.read step-up)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Contact"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/expenses": {
   "get": {
    "summary": "Expense claims the caller may see",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "expenses": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Expense"
           }
          }
         },
         "required": [
          "expenses"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Submit an expense claim (needs an expenses.submit step-up; idempotent by key)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "Idempotency-Key",
      "in": "header",
      "required": true,
      "schema": {
       "type": "string",
       "minLength": 1,
       "maxLength": 128
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "$ref": "#/components/schemas/NewExpense"
       }
      }
     }
    },
    "responses": {
     "201": {
      "description": "Submitted",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Expense"
        }
       }
      },
      "headers": {
       "Idempotent-Replayed": {
        "description": "true when this answers an earlier request with the same key",
        "schema": {
         "type": "string"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/members": {
   "get": {
    "summary": "The organisation's members (coordinators, administrators)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "members": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Member"
           }
          }
         },
         "required": [
          "members"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/members/{user}/devices": {
   "delete": {
    "summary": "Remove all of a member's devices (administrators)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     },
     {
      "name": "user",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "revoked": {
           "type": "integer"
          }
         },
         "required": [
          "revoked"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/users/merge": {
   "post": {
    "summary": "Merge two accounts of one person (administrators, after a fresh BankID or Vipps login)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "keep": {
          "type": "string"
         },
         "remove": {
          "type": "string"
         }
        },
        "required": [
         "keep",
         "remove"
        ]
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "kept": {
           "type": "string"
          },
          "removed": {
           "type": "string"
          }
         },
         "required": [
          "kept",
          "removed"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/member-sync": {
   "get": {
    "summary": "The personnummer sync log (administrators)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     },
     {
      "name": "outcome",
      "in": "query",
      "schema": {
       "type": "string"
      }
     },
     {
      "name": "status",
      "in": "query",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "entries": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/SyncEntry"
           }
          }
         },
         "required": [
          "entries"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/member-sync/{id}": {
   "get": {
    "summary": "One entry; both numbers in full only with a step-up",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SyncEntry"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/member-sync/{id}/resolve": {
   "post": {
    "summary": "Resolve a conflict (keep the record's number or take the login's)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "keep": {
          "type": "string",
          "enum": [
           "record",
           "login"
          ]
         }
        },
        "required": [
         "keep"
        ]
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/SyncEntry"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/outbox": {
   "get": {
    "summary": "Member-system deliveries (administrators)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     },
     {
      "name": "status",
      "in": "query",
      "schema": {
       "type": "string"
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "properties": {
          "messages": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/OutboxMessage"
           }
          }
         },
         "required": [
          "messages"
         ]
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  },
  "/v1/organisations/{slug}/outbox/{id}/retry": {
   "post": {
    "summary": "Send a dead or waiting member-system update again now, with the same idempotency key (administrators; audited)",
    "security": [
     {
      "bearer": []
     },
     {
      "dpop": []
     }
    ],
    "parameters": [
     {
      "name": "slug",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "organisation slug"
     },
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "maxLength": 64
      },
      "description": "message id"
     }
    ],
    "responses": {
     "200": {
      "description": "The message, due now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/OutboxMessage"
        }
       }
      }
     },
     "404": {
      "description": "Not a message of this organisation",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Delivered already, or being delivered",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "default": {
      "description": "An error: an OAuth-style body (`error`, `error_description`, `message_id`), or a page for browsers",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       },
       "text/html": {
        "schema": {
         "type": "string"
        }
       }
      }
     }
    }
   }
  }
 }
}
"""#
}
