"""American Rails: six companies, the action track and share auctions."""
