// PindropProviders
